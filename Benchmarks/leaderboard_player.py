"""Signs up a learner and plays one 2-pair card-matching game live through the
HTTP API (finding pairs by trying, as a player who sees nothing in advance
would), so that the learner has a place on the board. Prints the token and
the learner id, tab-separated."""
import functools
import sys

import parla_api

call = functools.partial(parla_api.call, int(sys.argv[1]))

account = call("POST", "/v1/accounts", {"firstName": "Bench", "lastName": "Mark", "email": "board@example.com",
                                        "password": "benchmark password", "acceptTerms": True})
token, learner = account["session"]["token"], account["learners"][0]["id"]
game = call("POST", f"/v1/learners/{learner}/games", {"language": "fr", "kind": "matching", "pairs": 2, "faces": "wordTranslation"}, token)
flips = f"/v1/learners/{learner}/games/{game['id']}/flips"
left = [card["position"] for card in game["cards"]]
while left:
    first = left.pop(0)
    for second in list(left):
        call("POST", flips, {"position": first}, token)
        if call("POST", flips, {"position": second}, token)["outcome"] == "match":
            left.remove(second)
            break
print(f"{token}\t{learner}")
