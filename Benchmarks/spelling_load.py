#!/usr/bin/env python3
"""Closed-loop load on live spelling games' tile placements (issue 35), standard library only.

`signup`: signs up LEARNERS accounts one after another (bcrypt makes that
slow on purpose), each on the trial (the free plan allows ten games a day,
`gamesPerDay`; the trial has no daily limit), and prints one line per
learner: its session token, its learner id and the language it will spell
in (fr, it, de, es, en in turn).

`run`: one simulated learner per account of --accounts, each on its own
keep-alive HTTP/1.1 connection: deal a live spelling game
(`POST /v1/learners/{id}/spellings`, 5 words, medium: words of at most 7
letters, 2 letters that belong nowhere among the tiles), then spell every
word as Tests/ParlaServerTests/SpellingHTTPTests.swift's `spellLive` does:
each tile of the word in the order dealt onto the word's first open target
(`POST .../spellings/{gameId}/placements`); a wrong one is placed again on
the first target its letter fits (`accepting`), a letter that fits none is
one that belongs nowhere and is left; once the game is finished, deal
another. Every placement is timed (the figure), game starts apart. The
first WARMUP seconds are discarded, the next DURATION seconds are measured,
and a markdown report is printed on stdout (problems go to stderr);
--summary writes the figures as JSON for Benchmarks/spelling.sh.
"""

import asyncio
import json
import random
import time

from lesson_load import (Clock, Connection, LoadStats, client_note, figure, gather_measuring_cpu, language_mix, load_main,
                         pace, problem_counts, row, run_inputs, table_head, timed, write_summary)

WORDS = 5
DIFFICULTY = "medium"
# The kinds of placement, in the report's order: what each asks of the server
# beyond the game's own state (a spelled word is an answer for the memory
# model; the game's last placement also records its result).
KINDS = [("placed", "placed (the letter stays)"), ("wrong", "wrong (the tile pops back, a mistake)"),
         ("spelled", "spelled (a word's last letter: the memory model updated)"),
         ("finished", "finished (the game's last: its result recorded, the leaderboard)")]


class Stats(LoadStats):
    """starts: games dealt; errors: placements not 200 or broken; stuck: a word its tiles did not spell."""

    def __init__(self):
        super().__init__()
        self.placements = []  # (feedback, seconds), measured window only
        self.retries = 0  # wrong placements placed again on `accepting`, measured window
        self.distractors = 0  # wrong placements of a letter that fits nowhere, measured window
        self.words_spelled = 0  # in the measured window
        self.games_completed = 0  # finished within the measured window


def open_target(word):
    """The index of the word's first target still to fill, or None."""
    return next((target["index"] for target in word["targets"] if not target["fixed"] and not target["filled"]), None)


def tile_of(word, tile_id):
    return next((tile for tile in word["tiles"] if tile["id"] == tile_id), None)


class Broken(Exception):
    """A placement failed (not 200, or a body that cannot be read): deal another game."""


async def learner(host, port, token, learner_id, language, clock, stats, rng, think):
    connection = Connection(host, port)
    headers = {"Authorization": f"Bearer {token}"}
    games_path = f"/v1/learners/{learner_id}/spellings"
    start_body = {"language": language, "words": WORDS, "difficulty": DIFFICULTY}

    async def place(placements_path, tile_id, target):
        """One timed placement; returns its reply, raises Broken."""
        pause = rng.uniform(*think)
        if pause > 0:  # a learner looks for where the tile goes (none with --think 0,0)
            await asyncio.sleep(pause)
        body = {"tileId": tile_id, "target": target}
        status, payload, elapsed = await timed(connection, "POST", placements_path, body, headers)
        counted = clock.measuring(time.perf_counter())
        reply = None
        if status == 200:
            try:
                reply = json.loads(payload)
                feedback, game = reply["feedback"], reply["game"]
                if reply["outcome"] not in ("placed", "wrong") or not isinstance(reply["accepting"], list) \
                        or not isinstance(game.get("words"), list):
                    raise ValueError("not a TilePlacement")
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                reply = None
                payload = f"{error!r}: {payload[:400].decode(errors='replace')}".encode()
        if reply is None:
            stats.error(counted, "placement", f"placement {body}: HTTP {status}", payload[:500].decode(errors="replace"))
            raise Broken()
        if counted:
            stats.placements.append((feedback, elapsed))
            if feedback in ("spelled", "finished"):
                stats.words_spelled += 1
            if feedback == "finished":
                stats.games_completed += 1
        return reply, counted

    try:
        while time.perf_counter() < clock.end:
            status, payload, elapsed = await timed(connection, "POST", games_path, start_body, headers)
            game = None
            if status == 201:
                try:
                    game = json.loads(payload)
                    if not isinstance(game.get("words"), list) or "id" not in game:
                        raise ValueError("not a SpellingGame")
                except (ValueError, AttributeError) as error:
                    game, status = None, f"{status} (broken body: {error})"
            if game is None:
                await stats.refused(status, f"spelling game start ({language}): HTTP {status}", payload)
                continue
            if clock.measuring(time.perf_counter()):
                stats.starts.append(elapsed)
            placements_path = f"{games_path}/{game['id']}/placements"
            try:
                while game.get("status") == "inProgress" and game.get("current") is not None:
                    index = game["current"]
                    # The tiles as dealt (their order is shuffled), each placed at most once.
                    for tile_id in [tile["id"] for tile in game["words"][index]["tiles"]]:
                        if time.perf_counter() >= clock.end:
                            return
                        if game.get("current") != index:
                            break  # the word is spelled: the tiles left belong nowhere
                        word = game["words"][index]
                        tile = tile_of(word, tile_id)
                        if tile is None or tile["placed"]:
                            continue
                        target = open_target(word)
                        if target is None:
                            break
                        reply, counted = await place(placements_path, tile_id, target)
                        game = reply["game"]
                        if reply["outcome"] == "wrong":
                            if not reply["accepting"]:
                                if counted:
                                    stats.distractors += 1
                                continue  # a letter that belongs nowhere: leave it
                            if counted:
                                stats.retries += 1
                            reply, _ = await place(placements_path, tile_id, reply["accepting"][0])
                            game = reply["game"]
                    if game.get("status") == "inProgress" and game.get("current") == index:
                        stats.stuck += 1
                        stats.show("stuck", "a word its tiles did not spell", json.dumps(game["words"][index])[:500])
                        break  # deal another game
            except Broken:
                pass  # deal another game
            except (KeyError, IndexError, TypeError, AttributeError) as error:
                # A game without the fields the protocol promises.
                stats.error(clock.measuring(time.perf_counter()), "placement", "a game the client could not read",
                            f"{error!r}: {json.dumps(game)[:400]}")
    finally:
        await connection.close()


async def run(args):
    think, accounts = run_inputs(args)
    rng = random.Random(args.seed)
    stats = Stats()
    clock = Clock(args.warmup, args.duration)
    used = await gather_measuring_cpu(clock, args.duration, (
        learner(args.host, args.port, token, learner_id, language, clock, stats, random.Random(rng.random()), think)
        for token, learner_id, language in accounts))

    every = [seconds for _, seconds in stats.placements]
    ordered = sorted(every)
    wrong = sum(1 for feedback, _ in stats.placements if feedback == "wrong")
    wrong_share = wrong / len(every) if every else 0.0
    starts = sorted(stats.starts)

    print(f"# Spelling tile placements under load{': ' + args.label if args.label else ''}\n")
    print(f"{len(accounts)} simulated learners, one keep-alive HTTP/1.1 connection each, "
          f"{pace(think, 'before each placement')}: deal a live spelling game ({WORDS} words, {DIFFICULTY}), spell "
          "each word tile by tile (each tile as dealt onto the first open target; a wrong one placed again on the first "
          "target its letter fits, `accepting`; a letter that fits none left), then deal another. "
          f"{args.warmup:g} s of warm-up discarded, then {args.duration:g} s measured; every "
          "POST /v1/learners/{id}/spellings/{id}/placements is timed in the table (game starts below).\n")
    print(f"Learners per language: {language_mix(accounts)}.")
    print(client_note(used))
    print(table_head("tile placed", "placements"))
    print(row("**all placements**", every, args.duration))
    for kind, label in KINDS:
        print(row(label, [s for k, s in stats.placements if k == kind], args.duration))
    print()
    print(table_head("game dealt", "starts"))
    print(row(f"POST /v1/learners/{{id}}/spellings ({WORDS} words, {DIFFICULTY})", stats.starts, args.duration))
    print()
    problems = problem_counts(stats.start_problems)
    print(f"Wrong placements: {wrong} of {len(every)} ({wrong_share:.1%}): {stats.retries} placed again where the letter "
          f"fits, {stats.distractors} letters that belong nowhere. Words spelled in the measured window: "
          f"{stats.words_spelled}; games finished: {stats.games_completed}.")
    print(f"Errors (placements not 200, or broken, in the measured window): {stats.errors} ({stats.errors_total} "
          f"including warm-up). Game starts refused or broken: {problems}. Words their tiles did not spell: {stats.stuck}.")
    write_summary(args.summary, len(accounts), args.duration, {
        "think": list(think), "placements": len(every), "rate": len(every) / args.duration,
        "p50": figure(ordered, 50), "p90": figure(ordered, 90), "p99": figure(ordered, 99),
        "max": ordered[-1] * 1000 if ordered else None,
        "wrong": wrong, "wrongShare": wrong_share, "retries": stats.retries,
        "distractors": stats.distractors, "wordsSpelled": stats.words_spelled,
        "gamesCompleted": stats.games_completed,
        "starts": len(starts), "startRate": len(starts) / args.duration,
        "startP50": figure(starts, 50), "startP99": figure(starts, 99)}, stats, used)


def main():
    load_main(__doc__, run, email="spelling", port=18088, seed_help="for the think times",
              think_help="seconds each learner takes before a placement: MIN,MAX (uniform)",
              summary_help="write the figures as JSON here")


if __name__ == "__main__":
    main()
