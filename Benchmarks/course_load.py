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

import asyncio
import json
import random
import time

from lesson_load import (LANGUAGES, Clock, Connection, LoadStats, client_note, figure, gather_measuring_cpu, language_mix,
                         load_main, pace, problem_counts, row, run_inputs, table_head, timed, write_summary)

SECTIONS = ["learnToRead", "readAStory", "discover", "artSpace"]
# The order of the per-type rows in the report.
TYPES = ["picture", "translationFromTarget", "translationToTarget", "listening", "gapFill", "reading",
         "sequencing", "dragMatching", "sightWords", "letters", "spelling"]


class Stats(LoadStats):
    """starts: lesson starts; errors: answers and speaking pauses not 200 or broken; stuck: a screen with
    nothing left to try."""

    def __init__(self):
        super().__init__()
        self.answers = []  # (question type, correct, seconds), measured window only
        self.pauses = 0  # speaking pauses asked, any time
        self.screens = 0  # screens done (answered right, or every item in place) in the measured window
        self.lessons_completed = 0  # finished within the measured window


class Screen:
    """What a learner remembers of the screen in front of it: the drops that
    went wrong (a template's wrong drop pops back, not disabled)."""

    def __init__(self, question_id):
        self.id = question_id
        self.wrong = set()  # sequencing and sight words: items tried in this box or turn; matching, spelling: pairs


def choose(question, screen, rng):
    """An answer to `question` not tried yet, or None when nothing is left."""
    kind = question["type"]
    options = question.get("options", [])
    if kind in ("dragMatching", "spelling"):
        # A spelling question's tiles go on its letters' places as matching's items go on targets.
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
                await stats.refused(status, f"lesson start {course_lesson}: HTTP {status}", payload)
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
                        stats.error(clock.measuring(time.perf_counter()), "pause", f"speaking pause: HTTP {status}",
                                    payload[:500].decode(errors="replace"))
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
                    stats.error(counted, "answer", f"answer to a {question['type']} screen: HTTP {status}",
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


async def run(args):
    think, accounts = run_inputs(args)
    courses = {}
    for token, learner_id, language in accounts:
        if language not in courses:
            courses[language] = await course_lessons(args.host, args.port, token, learner_id, language)

    rng = random.Random(args.seed)
    stats = Stats()
    clock = Clock(args.warmup, args.duration)
    used = await gather_measuring_cpu(clock, args.duration, (
        learner(args.host, args.port, token, learner_id, language, courses[language], clock, stats,
                random.Random(rng.random()), think)
        for token, learner_id, language in accounts))

    lessons = ", ".join(f"{language} {len(courses[language])}" for language in LANGUAGES if language in courses)
    print(f"# Course lessons under load{': ' + args.label if args.label else ''}\n")
    print(f"{len(accounts)} simulated learners, one keep-alive HTTP/1.1 connection each, {pace(think, 'to answer')}: "
          "take the course's lessons in course order from a random one (`mode: course`), answer every screen with an "
          "option or a drop not yet tried (one drop per request for sequencing, drag matching and sight words), pass "
          f"over speaking screens (speaking pause). {args.warmup:g} s of warm-up discarded, then {args.duration:g} s "
          "measured; only POST /v1/learners/{id}/lessons/{id}/answers is timed in the table (lesson starts below).\n")
    print(f"Learners per language: {language_mix(accounts)}. Lessons in each course: {lessons}.")
    print(client_note(used))
    print(table_head("screen answered", "answers"))
    every = [seconds for _, _, seconds in stats.answers]
    print(row("**all answers**", every, args.duration))
    print(row("right (the next item, box or screen)", [s for _, c, s in stats.answers if c], args.duration))
    print(row("wrong (the same screen back)", [s for _, c, s in stats.answers if not c], args.duration))
    seen = {kind for kind, _, _ in stats.answers}
    for kind in TYPES + sorted(seen - set(TYPES)):
        if kind in seen:
            print(row(kind, [s for k, _, s in stats.answers if k == kind], args.duration))
    print()
    print(table_head("lesson started", "starts"))
    print(row("POST /v1/learners/{id}/lessons (mode course)", stats.starts, args.duration))
    print()
    problems = problem_counts(stats.start_problems)
    print(f"Errors (answers and speaking pauses not 200, or broken, in the measured window): {stats.errors} "
          f"({stats.errors_total} including warm-up). Lesson starts refused or broken: {problems}. "
          f"Screens with nothing left to try: {stats.stuck}.")
    per_screen = len(stats.answers) / stats.screens if stats.screens else float("nan")
    print(f"Screens done in the measured window: {stats.screens} ({per_screen:.2f} answers each); lessons completed: "
          f"{stats.lessons_completed}. Speaking pauses asked (the whole run): {stats.pauses}.")
    ordered = sorted(every)
    write_summary(args.summary, len(accounts), args.duration, {
        "answers": len(every), "rate": len(every) / args.duration,
        "p50": figure(ordered, 50), "p99": figure(ordered, 99)}, stats, used)


def main():
    load_main(__doc__, run, email="course", port=18087, seed_help="for the lessons and answers chosen",
              think_help="seconds each learner takes before an answer: MIN,MAX (uniform)",
              summary_help="write the figures of all answers here as JSON")


if __name__ == "__main__":
    main()
