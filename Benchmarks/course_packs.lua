-- wrk: one learner's pack list (GET /v1/learners/{id}/packs?language=),
-- the five languages in turn, with its bearer token: PACK_LEARNER and
-- PACK_TOKEN (Benchmarks/course.sh).
local learner, token = os.getenv("PACK_LEARNER"), os.getenv("PACK_TOKEN")
local languages = { "en", "fr", "it", "de", "es" }
local headers = { ["Authorization"] = "Bearer " .. token }
local turn = 0

request = function()
  turn = turn % #languages + 1
  return wrk.format("GET", "/v1/learners/" .. learner .. "/packs?language=" .. languages[turn], headers)
end
