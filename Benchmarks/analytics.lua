-- wrk: each request a batch of BATCH (100) new analytics events of a
-- random learner from ANALYTICS_LEARNERS (lines "token learnerId"): words
-- opened, pictures touched and audio played across lists, lessons, games
-- and screens, each with a fresh random id (so none is a duplicate).
local learners = {}
for line in io.lines(os.getenv("ANALYTICS_LEARNERS")) do
  local token, learner = line:match("(%S+) (%S+)")
  table.insert(learners, { token = token, path = "/v1/learners/" .. learner .. "/events" })
end
local batch = tonumber(os.getenv("BATCH") or "100")
local words = { "cat", "dog", "horse", "cow", "bird", "fish", "bed", "chair", "door", "table", "apple", "bread" }
local languages = { "en", "fr", "it", "de", "es" }
local touches = { "word_opened", "picture_touched", "audio_played" }
local others = { '"kind":"lesson_started"', '"kind":"lesson_finished","durationMs":120000', '"kind":"game_finished"',
  '"kind":"screen_viewed","screen":"word_list","durationMs":15000' }

-- Seeded per thread: wrk runs each thread's script in its own state.
local seeded = false
local function uuid()
  return string.format("%08x-%04x-4%03x-%04x-%012x", math.random(0, 0xffffffff), math.random(0, 0xffff), math.random(0, 0xfff),
    0x8000 + math.random(0, 0x3fff), math.random(0, 0xffffffffffff))
end

request = function()
  if not seeded then
    math.randomseed(os.time() + math.floor(os.clock() * 1e6) + tonumber(tostring({}):sub(8), 16))
    seeded = true
  end
  local learner = learners[math.random(#learners)]
  local time = os.date("!%Y-%m-%dT%H:%M:%SZ")
  local events = {}
  for i = 1, batch do
    local body
    if math.random(4) > 1 then
      body = string.format('"kind":"%s","language":"%s","listId":"animals","itemKind":"word","itemId":"%s"',
        touches[math.random(#touches)], languages[math.random(#languages)], words[math.random(#words)])
    else
      body = others[math.random(#others)]
    end
    events[i] = string.format('{"id":"%s","occurredAt":"%s",%s}', uuid(), time, body)
  end
  return wrk.format("POST", learner.path, { ["Authorization"] = "Bearer " .. learner.token, ["Content-Type"] = "application/json" },
    '{"utcOffsetMinutes":60,"events":[' .. table.concat(events, ",") .. ']}')
end
