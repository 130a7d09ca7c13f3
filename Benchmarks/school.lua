-- wrk: each request a random teacher's own class, from SCHOOL_TEACHERS
-- (lines "token classId"): SCHOOL_PAGE=overview asks the API's class
-- overview with the bearer token; SCHOOL_PAGE=dashboard the dashboard's
-- class page with the session cookie.
local teachers = {}
for line in io.lines(os.getenv("SCHOOL_TEACHERS")) do
  local token, class = line:match("(%S+) (%S+)")
  table.insert(teachers, { token = token, class = class })
end
local dashboard = os.getenv("SCHOOL_PAGE") == "dashboard"
math.randomseed(os.time())

request = function()
  local teacher = teachers[math.random(#teachers)]
  if dashboard then
    return wrk.format("GET", "/teach/classes/" .. teacher.class, { ["Cookie"] = "parla_teach=" .. teacher.token })
  end
  return wrk.format("GET", "/v1/classes/" .. teacher.class .. "/overview", { ["Authorization"] = "Bearer " .. teacher.token })
end
