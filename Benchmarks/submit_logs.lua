-- wrk: each request submits one prepared game log (Benchmarks/game_logs.py),
-- each log once; thread n of N takes every Nth. When a thread runs out it
-- asks for a path that does not exist, so running out shows as non-2xx.
local threads = {}

function setup(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
  thread:set("count", 0)
end

function init(args)
  local file = os.getenv("GAME_LOGS")
  local total = tonumber(os.getenv("WRK_THREADS"))
  requests = {}
  local line_number = 0
  for line in io.lines(file) do
    if line_number % total == index then
      local path, token, body = line:match("([^\t]+)\t([^\t]+)\t(.+)")
      table.insert(requests, wrk.format("POST", path,
        { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body))
    end
    line_number = line_number + 1
  end
  next_request = 1
end

function request()
  local prepared = requests[next_request]
  next_request = next_request + 1
  if prepared then return prepared end
  return wrk.format("GET", "/v1/no-more-game-logs")
end
