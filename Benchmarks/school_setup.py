"""The school's teachers, through the API as teachers sign up: each signs
up, becomes a teacher, creates a French A2 class and gives it three
assignments (a word list, a grammar note and five phrases). Prints one line
per teacher: its session token and its class id."""
import argparse
import datetime
import json
import urllib.request

from parla_api import call

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--teachers", type=int, default=150)
arguments = parser.parse_args()

due = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
lists = [entry["id"] for entry in call(arguments.port, "GET", "/v1/languages/fr/wordlists")["wordLists"]]
notes = [entry["id"] for entry in call(arguments.port, "GET", "/v1/languages/fr/grammar")["notes"]]
phrases = [entry["id"] for entry in call(arguments.port, "GET", "/v1/languages/fr/phrases?perPage=100")["phrases"]]
for index in range(arguments.teachers):
    signed = call(arguments.port, "POST", "/v1/accounts", {
        "firstName": "Teacher", "lastName": "Martin", "email": f"teacher{index}@school.example",
        "password": "school benchmark password", "acceptTerms": True, "uiLanguage": "fr"})
    token = signed["session"]["token"]
    call(arguments.port, "PUT", "/v1/me/teacher", {"displayName": f"Teacher {index}", "school": "Benchmark school"}, token)
    created = call(arguments.port, "POST", "/v1/classes", {"name": f"Class {index}", "language": "fr", "level": "A2"}, token)
    for kind, targets in (("wordList", [lists[index % len(lists)]]), ("grammarNote", [notes[index % len(notes)]]),
                          ("phrases", [phrases[(index * 5 + k) % len(phrases)] for k in range(5)])):
        call(arguments.port, "POST", f"/v1/classes/{created['id']}/assignments",
             {"kind": kind, "targets": targets, "dueAt": due}, token)
    print(token, created["id"], flush=True)
