#!/usr/bin/env python3
"""Closed-loop load on the course's lessons (issue 34), standard library only.

`signup`: signs up LEARNERS accounts one after another (bcrypt makes that
slow on purpose), each on the trial (it opens every pack and has no daily
limit), and prints one line per learner: its session token, its learner id
and the language it will learn (fr, it, de, es, en in turn; its own
language, the UI language it signed up with, is another, so translation
screens are asked).

`run`: one simulated learner per account of --accounts, each on its own
keep-alive HTTP/1.1 connection: take the lessons of the course of its
language one after another in course order (from a random one), each
started with `POST /v1/learners/{id}/lessons` (`mode: course`), and answer
every screen: a multiple-choice screen with an option not yet tried (a wrong
one comes back, a right one moves on), a template one drop per request
(sequencing and sight words: an item not yet tried in the next box or
turn; drag matching: an item on a target, a pair not yet tried). A
repetition screen needs a recording: the learner says "I can't speak now"
(`POST .../speaking-pause`, not timed), so speaking screens are passed over
for the rest of the run. Only `POST .../answers` is timed, per question
type; lesson starts are timed apart. The first WARMUP seconds are
discarded, the next DURATION seconds are measured, and a markdown report
is printed on stdout (problems go to stderr); --summary writes the figures
as JSON for Benchmarks/course.sh.
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
SECTIONS = ["learnToRead", "readAStory", "discover", "artSpace"]
REQUEST_TIMEOUT = 60.0
# The order of the per-type rows in the report.
TYPES = ["picture", "translationFromTarget", "translationToTarget", "listening", "gapFill", "reading",
         "sequencing", "dragMatching", "sightWords"]


def own_language(language):
    """The UI language (the learner's own) of a learner of `language`."""
    return "fr" if language == "en" else "en"


async def signup(args):
    suffix = secrets.token_hex(4)
    connection = Connection(args.host, args.port)
    started = time.perf_counter()
    for index in range(args.learners):
        language = LANGUAGES[index % len(LANGUAGES)]
        token, learner_id = await sign_up(connection, index, suffix, args.email, own_language(language))
        print(token, learner_id, language, flush=True)
    await connection.close()
    print(f"{args.learners} sign-ups in {time.perf_counter() - started:.1f} s", file=sys.stderr)


class Stats:
    def __init__(self):
        self.answers = []  # (question type, correct, seconds), measured window only
        self.starts = []  # seconds per lesson start, measured window only
        self.errors = 0  # answers not 200 or broken, measured window
        self.errors_total = 0  # including warm-up
        self.start_problems = {}  # lesson starts refused or broken, by status, any time
        self.pauses = 0  # speaking pauses asked, any time
        self.stuck = 0  # a screen with nothing left to try, any time
        self.screens = 0  # screens done (answered right, or every item in place) in the measured window
        self.lessons_completed = 0  # finished within the measured window
        self.shown = {}

    def show(self, kind, what, detail):
        """Prints the first few problems of each kind on stderr."""
        show_problem(self.shown, kind, what, detail)


class Screen:
    """What a learner remembers of the screen in front of it: the drops that
    went wrong (a template's wrong drop pops back, not disabled)."""

    def __init__(self, question_id):
        self.id = question_id
        self.wrong = set()  # sequencing and sight words: items tried in this box or turn; matching: pairs


def choose(question, screen, rng):
    """An answer to `question` not tried yet, or None when nothing is left."""
    kind = question["type"]
    options = question.get("options", [])
    if kind == "dragMatching":
        items = [option["id"] for option in options if not option.get("disabled")]
        targets = [target["id"] for target in question.get("targets", []) if not target.get("filled")]
        pairs = [(item, target) for item in items for target in targets if (item, target) not in screen.wrong]
        if not pairs:
            return None
        item, target = rng.choice(pairs)
        return {"questionId": question["id"], "optionId": item, "targetId": target}
    if kind in ("sequencing", "sightWords"):
        # Sight words' tiles are never used up (a word may come twice); a sequence's placed items are disabled.
        items = [option["id"] for option in options
                 if (kind == "sightWords" or not option.get("disabled")) and option["id"] not in screen.wrong]
        if not items:
            return None
        return {"questionId": question["id"], "optionId": rng.choice(items)}
    items = [option["id"] for option in options if not option.get("disabled")]
    if not items:
        return None
    return {"questionId": question["id"], "optionId": rng.choice(items), "responseTimeMs": rng.randint(800, 4000)}


async def timed(connection, method, path, body, headers):
    """(status, payload, seconds); status None when the request broke."""
    try:
        status, _, payload, elapsed = await asyncio.wait_for(
            connection.request(method, path, body, headers), REQUEST_TIMEOUT)
        return status, payload, elapsed
    except (HTTPError, asyncio.TimeoutError) as error:
        await connection.close()
        return None, repr(error).encode(), None


async def learner(host, port, token, learner_id, language, course, clock, stats, rng, think):
    connection = Connection(host, port)
    headers = {"Authorization": f"Bearer {token}"}
    lessons_path = f"/v1/learners/{learner_id}/lessons"
    place = rng.randrange(len(course))
    try:
        while time.perf_counter() < clock.end:
            course_lesson = course[place % len(course)]
            place += 1
            start_body = {"language": language, "mode": "course", "courseLesson": course_lesson}
            status, payload, elapsed = await timed(connection, "POST", lessons_path, start_body, headers)
            if status not in (200, 201):
                stats.start_problems[status] = stats.start_problems.get(status, 0) + 1
                stats.show("start", f"lesson start {course_lesson}: HTTP {status}", payload[:500].decode(errors="replace"))
                await asyncio.sleep(0.2)  # no hot loop against a server that refuses
                continue
            if clock.measuring(time.perf_counter()):
                stats.starts.append(elapsed)
            lesson = json.loads(payload)
            lesson_path = f"{lessons_path}/{lesson['id']}"
            screen = None
            broken = False  # an answer or a pause failed: take the same lesson again (it resumes)
            while lesson.get("status") == "inProgress" and lesson.get("question"):
                if time.perf_counter() >= clock.end:
                    return
                question = lesson["question"]
                if screen is None or screen.id != question["id"]:
                    screen = Screen(question["id"])
                if question["type"] == "repetition":
                    # No recording to make: "I can't speak now" passes over speaking screens.
                    status, payload, _ = await timed(connection, "POST", f"{lesson_path}/speaking-pause", None, headers)
                    stats.pauses += 1
                    if status != 200:
                        stats.errors_total += 1
                        if clock.measuring(time.perf_counter()):
                            stats.errors += 1
                        stats.show("pause", f"speaking pause: HTTP {status}", payload[:500].decode(errors="replace"))
                        broken = True
                        break
                    lesson = json.loads(payload)
                    continue
                answer = choose(question, screen, rng)
                if answer is None:
                    stats.stuck += 1
                    stats.show("stuck", "a screen with nothing left to try", json.dumps(question)[:500])
                    await timed(connection, "POST", f"{lesson_path}/abandon", None, headers)
                    break
                # A learner reads the screen before answering (none with --think 0,0).
                pause = rng.uniform(*think)
                if pause > 0:
                    await asyncio.sleep(pause)
                    if "responseTimeMs" in answer:
                        answer["responseTimeMs"] = int(pause * 1000)
                status, payload, elapsed = await timed(connection, "POST", f"{lesson_path}/answers", answer, headers)
                counted = clock.measuring(time.perf_counter())
                if status != 200:
                    stats.errors_total += 1
                    if counted:
                        stats.errors += 1
                    stats.show("answer", f"answer to a {question['type']} screen: HTTP {status}",
                               payload[:500].decode(errors="replace"))
                    broken = True
                    break
                reply = json.loads(payload)
                correct = bool(reply.get("correct"))
                if counted:
                    stats.answers.append((question["type"], correct, elapsed))
                if correct:
                    screen.wrong.clear()  # the next box or turn
                elif question["type"] == "dragMatching":
                    screen.wrong.add((answer["optionId"], answer["targetId"]))
                else:
                    screen.wrong.add(answer["optionId"])
                lesson = reply["lesson"]
                done = lesson.get("status") == "finished" or (lesson.get("question") or {}).get("id") != question["id"]
                if done and counted:
                    stats.screens += 1
                if lesson.get("status") == "finished" and counted:
                    stats.lessons_completed += 1
            if broken:
                place -= 1
    finally:
        await connection.close()


async def course_lessons(host, port, token, learner_id, language):
    """The lessons of the course in `language`, in course order, as its packs list them."""
    connection = Connection(host, port)
    headers = {"Authorization": f"Bearer {token}"}
    try:
        status, _, payload, _ = await connection.request(
            "GET", f"/v1/learners/{learner_id}/packs?language={language}", None, headers)
        if status != 200:
            raise SystemExit(f"packs of {language}: HTTP {status} {payload[:500].decode(errors='replace')}")
        overview = json.loads(payload)
        sections = sorted(overview["sections"], key=lambda section: SECTIONS.index(section["section"]))
        lessons = []
        for section in sections:
            for pack in sorted(section["packs"], key=lambda pack: pack["order"]):
                status, _, payload, _ = await connection.request(
                    "GET", f"/v1/learners/{learner_id}/packs/{pack['id']}", None, headers)
                if status != 200:
                    raise SystemExit(f"pack {pack['id']}: HTTP {status} {payload[:500].decode(errors='replace')}")
                lessons += [entry["id"] for entry in sorted(json.loads(payload)["lessonList"], key=lambda e: e["number"])]
        return lessons
    finally:
        await connection.close()


def row(name, latencies, duration):
    ordered = sorted(latencies)
    if not ordered:
        return f"| {name} | 0 | 0.0 | - | - | - | - |"
    ms = [nearest_rank(ordered, p) * 1000 for p in (50, 90, 99)] + [ordered[-1] * 1000]
    return (f"| {name} | {len(ordered)} | {len(ordered) / duration:.1f} | "
            + " | ".join(f"{value:.1f}" for value in ms) + " |")


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
    courses = {}
    for token, learner_id, language in accounts:
        if language not in courses:
            courses[language] = await course_lessons(args.host, args.port, token, learner_id, language)

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
        learner(args.host, args.port, token, learner_id, language, courses[language], clock, stats,
                random.Random(rng.random()), think)
        for token, learner_id, language in accounts))

    mix = ", ".join(f"{language} {sum(1 for a in accounts if a[2] == language)}" for language in LANGUAGES
                    if any(a[2] == language for a in accounts))
    lessons = ", ".join(f"{language} {len(courses[language])}" for language in LANGUAGES if language in courses)
    pace = ("closed loop without think time" if think[1] == 0
            else f"each taking {think[0]:g}-{think[1]:g} s (uniform) to answer")
    print(f"# Course lessons under load{': ' + args.label if args.label else ''}\n")
    print(f"{len(accounts)} simulated learners, one keep-alive HTTP/1.1 connection each, {pace}: take the course's "
          "lessons in course order from a random one (`mode: course`), answer every screen with an option or a drop "
          "not yet tried (one drop per request for sequencing, drag matching and sight words), pass over speaking "
          f"screens (speaking pause). {args.warmup:g} s of warm-up discarded, then {args.duration:g} s measured; "
          "only POST /v1/learners/{id}/lessons/{id}/answers is timed in the table (lesson starts below).\n")
    print(f"Learners per language: {mix}. Lessons in each course: {lessons}.")
    used = (cpu.get("to", 0) - cpu.get("from", 0)) / args.duration
    print(f"The client (Python asyncio, one process, {used:.0%} of a core while measured) runs on the same "
          f"{os.cpu_count()} cores as Parla and PostgreSQL; release build.\n")
    print("| screen answered | answers | answers/s | p50 ms | p90 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    every = [seconds for _, _, seconds in stats.answers]
    print(row("**all answers**", every, args.duration))
    print(row("right (the next item, box or screen)", [s for _, c, s in stats.answers if c], args.duration))
    print(row("wrong (the same screen back)", [s for _, c, s in stats.answers if not c], args.duration))
    seen = {kind for kind, _, _ in stats.answers}
    for kind in TYPES + sorted(seen - set(TYPES)):
        if kind in seen:
            print(row(kind, [s for k, _, s in stats.answers if k == kind], args.duration))
    print()
    print("| lesson started | starts | starts/s | p50 ms | p90 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(row("POST /v1/learners/{id}/lessons (mode course)", stats.starts, args.duration))
    print()
    problems = ", ".join(f"HTTP {status}: {count}" for status, count in sorted(stats.start_problems.items(), key=str)) or "none"
    print(f"Errors (answers and speaking pauses not 200, or broken, in the measured window): {stats.errors} "
          f"({stats.errors_total} including warm-up). Lesson starts refused or broken: {problems}. "
          f"Screens with nothing left to try: {stats.stuck}.")
    per_screen = len(stats.answers) / stats.screens if stats.screens else float("nan")
    print(f"Screens done in the measured window: {stats.screens} ({per_screen:.2f} answers each); lessons completed: "
          f"{stats.lessons_completed}. Speaking pauses asked (the whole run): {stats.pauses}.")
    if args.summary:
        ordered = sorted(every)
        with open(args.summary, "w") as summary:
            json.dump({"learners": len(accounts), "duration": args.duration, "answers": len(every),
                       "rate": len(every) / args.duration, "p50": nearest_rank(ordered, 50) * 1000 if ordered else None,
                       "p99": nearest_rank(ordered, 99) * 1000 if ordered else None, "errors": stats.errors,
                       "errorsTotal": stats.errors_total, "startProblems": sum(stats.start_problems.values()),
                       "stuck": stats.stuck, "clientCpu": used}, summary)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    up = commands.add_parser("signup", help="sign up learners on the trial; prints token, learner id, language")
    up.add_argument("--learners", type=int, default=64)
    up.add_argument("--email", default="course", help="the emails' prefix")
    load = commands.add_parser("run", help="the load, on the learners of --accounts")
    load.add_argument("--accounts", required=True, help="lines of token, learner id, language (from signup)")
    load.add_argument("--duration", type=float, default=20, help="measured seconds")
    load.add_argument("--warmup", type=float, default=3, help="seconds discarded first")
    load.add_argument("--seed", type=int, help="for the lessons and answers chosen")
    load.add_argument("--think", default="0,0", help="seconds each learner takes before an answer: MIN,MAX (uniform)")
    load.add_argument("--label", default="", help="the report's title says it")
    load.add_argument("--summary", help="write the figures of all answers here as JSON")
    for command in (up, load):
        command.add_argument("--host", default="127.0.0.1")
        command.add_argument("--port", type=int, default=18087)
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
