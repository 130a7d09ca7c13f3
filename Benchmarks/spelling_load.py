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

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import time

from lesson_load import Clock, Connection, HTTPError, nearest_rank, show_problem, sign_up

LANGUAGES = ["fr", "it", "de", "es", "en"]
WORDS = 5
DIFFICULTY = "medium"
REQUEST_TIMEOUT = 60.0
# The kinds of placement, in the report's order: what each asks of the server
# beyond the game's own state (a spelled word is an answer for the memory
# model; the game's last placement also records its result).
KINDS = [("placed", "placed (the letter stays)"), ("wrong", "wrong (the tile pops back, a mistake)"),
         ("spelled", "spelled (a word's last letter: the memory model updated)"),
         ("finished", "finished (the game's last: its result recorded, the leaderboard)")]


def own_language(language):
    """The UI language (the learner's own) of a learner of `language`."""
    return "fr" if language == "en" else "en"


async def signup(args):
    suffix = secrets.token_hex(4)
    connection = Connection(args.host, args.port)
    started = time.perf_counter()
    for index in range(args.learners):
        language = LANGUAGES[index % len(LANGUAGES)]
        # sign_up puts the account on the trial: no daily limit of games.
        token, learner_id = await sign_up(connection, index, suffix, args.email, own_language(language))
        print(token, learner_id, language, flush=True)
    await connection.close()
    print(f"{args.learners} sign-ups in {time.perf_counter() - started:.1f} s", file=sys.stderr)


class Stats:
    def __init__(self):
        self.placements = []  # (feedback, seconds), measured window only
        self.starts = []  # seconds per game dealt, measured window only
        self.errors = 0  # placements not 200 or broken, measured window
        self.errors_total = 0  # including warm-up
        self.start_problems = {}  # game starts refused or broken, by status, any time
        self.stuck = 0  # a word its tiles did not spell, any time
        self.retries = 0  # wrong placements placed again on `accepting`, measured window
        self.distractors = 0  # wrong placements of a letter that fits nowhere, measured window
        self.words_spelled = 0  # in the measured window
        self.games_completed = 0  # finished within the measured window
        self.shown = {}

    def show(self, kind, what, detail):
        """Prints the first few problems of each kind on stderr."""
        show_problem(self.shown, kind, what, detail)


async def timed(connection, method, path, body, headers):
    """(status, payload, seconds); status None when the request broke."""
    try:
        status, _, payload, elapsed = await asyncio.wait_for(
            connection.request(method, path, body, headers), REQUEST_TIMEOUT)
        return status, payload, elapsed
    except (HTTPError, asyncio.TimeoutError) as error:
        await connection.close()
        return None, repr(error).encode(), None


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
            stats.errors_total += 1
            if counted:
                stats.errors += 1
            stats.show("placement", f"placement {body}: HTTP {status}", payload[:500].decode(errors="replace"))
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
                stats.start_problems[status] = stats.start_problems.get(status, 0) + 1
                stats.show("start", f"spelling game start ({language}): HTTP {status}", payload[:500].decode(errors="replace"))
                await asyncio.sleep(0.2)  # no hot loop against a server that refuses
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
                stats.errors_total += 1
                if clock.measuring(time.perf_counter()):
                    stats.errors += 1
                stats.show("placement", "a game the client could not read", f"{error!r}: {json.dumps(game)[:400]}")
    finally:
        await connection.close()


def row(name, latencies, duration):
    ordered = sorted(latencies)
    if not ordered:
        return f"| {name} | 0 | 0.0 | - | - | - | - |"
    ms = [nearest_rank(ordered, p) * 1000 for p in (50, 90, 99)] + [ordered[-1] * 1000]
    return (f"| {name} | {len(ordered)} | {len(ordered) / duration:.1f} | "
            + " | ".join(f"{value:.1f}" for value in ms) + " |")


def figure(ordered, percent):
    return nearest_rank(ordered, percent) * 1000 if ordered else None


async def run(args):
    think = tuple(float(part) for part in args.think.split(","))
    if len(think) != 2 or not 0 <= think[0] <= think[1]:
        raise SystemExit("--think takes MIN,MAX seconds, 0 <= MIN <= MAX")
    accounts = []
    with open(args.accounts) as lines:
        for line in lines:
            if line.strip():
                token, learner_id, language = line.split()
                accounts.append((token, learner_id, language))
    if not accounts:
        raise SystemExit(f"no accounts in {args.accounts}")

    rng = random.Random(args.seed)
    stats = Stats()
    clock = Clock(args.warmup, args.duration)
    cpu = {}

    async def client_cpu():
        """The client's own CPU time over the measured window."""
        await asyncio.sleep(max(0.0, clock.measure_from - time.perf_counter()))
        cpu["from"] = time.process_time()
        await asyncio.sleep(max(0.0, clock.end - time.perf_counter()))
        cpu["to"] = time.process_time()

    await asyncio.gather(client_cpu(), *(
        learner(args.host, args.port, token, learner_id, language, clock, stats, random.Random(rng.random()), think)
        for token, learner_id, language in accounts))

    every = [seconds for _, seconds in stats.placements]
    ordered = sorted(every)
    wrong = sum(1 for feedback, _ in stats.placements if feedback == "wrong")
    wrong_share = wrong / len(every) if every else 0.0
    starts = sorted(stats.starts)
    used = (cpu.get("to", 0) - cpu.get("from", 0)) / args.duration

    mix = ", ".join(f"{language} {sum(1 for a in accounts if a[2] == language)}" for language in LANGUAGES
                    if any(a[2] == language for a in accounts))
    pace = ("closed loop without think time" if think[1] == 0
            else f"each taking {think[0]:g}-{think[1]:g} s (uniform) before each placement")
    print(f"# Spelling tile placements under load{': ' + args.label if args.label else ''}\n")
    print(f"{len(accounts)} simulated learners, one keep-alive HTTP/1.1 connection each, {pace}: deal a live spelling "
          f"game ({WORDS} words, {DIFFICULTY}), spell each word tile by tile (each tile as dealt onto the first open "
          "target; a wrong one placed again on the first target its letter fits, `accepting`; a letter that fits none "
          f"left), then deal another. {args.warmup:g} s of warm-up discarded, then {args.duration:g} s measured; every "
          "POST /v1/learners/{id}/spellings/{id}/placements is timed in the table (game starts below).\n")
    print(f"Learners per language: {mix}.")
    print(f"The client (Python asyncio, one process, {used:.0%} of a core while measured) runs on the same "
          f"{os.cpu_count()} cores as Parla and PostgreSQL; release build.\n")
    print("| tile placed | placements | placements/s | p50 ms | p90 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(row("**all placements**", every, args.duration))
    for kind, label in KINDS:
        print(row(label, [s for k, s in stats.placements if k == kind], args.duration))
    print()
    print("| game dealt | starts | starts/s | p50 ms | p90 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(row(f"POST /v1/learners/{{id}}/spellings ({WORDS} words, {DIFFICULTY})", stats.starts, args.duration))
    print()
    problems = ", ".join(f"HTTP {status}: {count}" for status, count in sorted(stats.start_problems.items(), key=str)) or "none"
    print(f"Wrong placements: {wrong} of {len(every)} ({wrong_share:.1%}): {stats.retries} placed again where the letter "
          f"fits, {stats.distractors} letters that belong nowhere. Words spelled in the measured window: "
          f"{stats.words_spelled}; games finished: {stats.games_completed}.")
    print(f"Errors (placements not 200, or broken, in the measured window): {stats.errors} ({stats.errors_total} "
          f"including warm-up). Game starts refused or broken: {problems}. Words their tiles did not spell: {stats.stuck}.")
    if args.summary:
        with open(args.summary, "w") as summary:
            json.dump({"learners": len(accounts), "duration": args.duration, "think": list(think),
                       "placements": len(every), "rate": len(every) / args.duration,
                       "p50": figure(ordered, 50), "p90": figure(ordered, 90), "p99": figure(ordered, 99),
                       "max": ordered[-1] * 1000 if ordered else None,
                       "wrong": wrong, "wrongShare": wrong_share, "retries": stats.retries,
                       "distractors": stats.distractors, "wordsSpelled": stats.words_spelled,
                       "gamesCompleted": stats.games_completed,
                       "starts": len(starts), "startRate": len(starts) / args.duration,
                       "startP50": figure(starts, 50), "startP99": figure(starts, 99),
                       "errors": stats.errors, "errorsTotal": stats.errors_total,
                       "startProblems": sum(stats.start_problems.values()), "stuck": stats.stuck,
                       "clientCpu": used}, summary)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    up = commands.add_parser("signup", help="sign up learners on the trial; prints token, learner id, language")
    up.add_argument("--learners", type=int, default=64)
    up.add_argument("--email", default="spelling", help="the emails' prefix")
    load = commands.add_parser("run", help="the load, on the learners of --accounts")
    load.add_argument("--accounts", required=True, help="lines of token, learner id, language (from signup)")
    load.add_argument("--duration", type=float, default=20, help="measured seconds")
    load.add_argument("--warmup", type=float, default=3, help="seconds discarded first")
    load.add_argument("--seed", type=int, help="for the think times")
    load.add_argument("--think", default="0,0", help="seconds each learner takes before a placement: MIN,MAX (uniform)")
    load.add_argument("--label", default="", help="the report's title says it")
    load.add_argument("--summary", help="write the figures as JSON here")
    for command in (up, load):
        command.add_argument("--host", default="127.0.0.1")
        command.add_argument("--port", type=int, default=18088)
    args = parser.parse_args()
    if args.command == "signup":
        if args.learners < 1:
            parser.error("learners must be at least 1")
        asyncio.run(signup(args))
    else:
        if args.duration <= 0 or args.warmup < 0:
            parser.error("duration must be positive, warmup not negative")
        asyncio.run(run(args))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
