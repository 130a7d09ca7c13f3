"""Prepares finished offline card-matching games for the HTTP submit
benchmark: signs up ACCOUNTS accounts, starts GAMES offline French games of 8
pairs (word and translation) through the API, pairs each deck's cards by the
words in Corpora/wordlists, and writes one line per game to OUT:
`path<TAB>token<TAB>log JSON`, the log a player would send, a flip every
0.4 s. Usage: game_logs.py PORT ACCOUNTS GAMES OUT"""
import functools
import glob
import json
import re
import sys
from concurrent.futures import ThreadPoolExecutor

import parla_api

port, accounts, games, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
call = functools.partial(parla_api.call, port)

# Which concepts a French word or an English word can stand for.
concepts = {"fr": {}, "en": {}}
for path in glob.glob("Corpora/wordlists/*.yaml"):
    for block in open(path, encoding="utf-8").read().split("\n  - key: ")[1:]:
        key = block.split("\n", 1)[0].strip()
        for language in concepts:
            found = re.search(r"\n    %s: \{word: (\"[^\"]*\"|[^,}]*)" % language, block)
            if found:
                concepts[language].setdefault(found.group(1).strip('"'), set()).add(key)


def signed_up(index):
    account = call("POST", "/v1/accounts", {"firstName": "Bench", "lastName": "Player", "email": f"player{index}@example.com",
                                            "password": "benchmark password", "acceptTerms": True})
    # The free plan allows ten games a day: the trial has no limit.
    call("POST", "/v1/me/plan/trial", {}, account["session"]["token"])
    return account["session"]["token"], account["learners"][0]["id"]


def prepared(number, player):
    token, learner = player
    game = call("POST", f"/v1/learners/{learner}/games",
                {"language": "fr", "kind": "matching", "pairs": 8, "faces": "wordTranslation", "offline": True}, token)
    faces = {card["position"]: concepts["fr" if card["face"] == "word" else "en"][card["text"]] for card in game["cards"]}
    left, order = sorted(faces), []
    while left:
        first = left.pop(0)
        partner = next(p for p in left if faces[p] & faces[first])
        left.remove(partner)
        order += [first, partner]
    log = {"flips": [{"position": position, "at": round(index * 0.4, 1)} for index, position in enumerate(order)]}
    return f"/v1/learners/{learner}/games/{game['id']}/log\t{token}\t{json.dumps(log, separators=(',', ':'))}"


with ThreadPoolExecutor(8) as pool:
    players = list(pool.map(signed_up, range(accounts)))
    lines = list(pool.map(lambda n: prepared(n, players[n % accounts]), range(games)))
with open(out, "w") as file:
    file.write("\n".join(lines) + "\n")
