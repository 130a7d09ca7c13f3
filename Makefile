# Parla: two commands do all set-up on a fresh Debian machine.
#   make run    installs missing system packages, builds, serves on :8080
#   make test   installs missing system packages, runs every test
SWIFT ?= swift
BUILD_FLAGS ?=

.PHONY: run test bench build install-deps clean format format-check fuzz-api fuzz-decoders faults soak train-speech

install-deps:
	@scripts/install-deps.sh

build: install-deps
	$(SWIFT) build $(BUILD_FLAGS) --product parla

run: build
	$(SWIFT) run $(BUILD_FLAGS) parla serve

# Checks the OpenAPI document (the 3.1 meta-schema, no stray schema key:
# scripts/check-openapi.sh), builds everything once (tests and the parla
# binary the lifecycle test starts), then runs the tests without
# relinking. One test at a time: on two cores, dozens of servers hashing
# passwords at once starve each other and turn time limits (readiness,
# shutdown) into coin tosses.
test: install-deps format-check
	scripts/check-openapi.sh
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel
	scripts/tour.sh
	scripts/fuzz-api.sh --quick

# PostgreSQL stopped and started, the server SIGKILLed, its embedded
# cluster killed, all under writes: nothing acknowledged is lost
# (Tests/ParlaServerTests/FaultTests.swift).
faults: install-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel --filter FaultTests

# schemathesis over every operation of the OpenAPI document, stateful phase
# included, 100 examples an operation (make test runs 8).
fuzz-api: install-deps
	$(SWIFT) build --product parla
	scripts/fuzz-api.sh

# libFuzzer with AddressSanitizer over the audio decoder and the picture
# check, RUNS executions each (1000000 unless given), at most SECONDS each
# if given; a finding is kept in Tests/Fuzz/regressions, which make test
# replays. Builds in .build-fuzz.
fuzz-decoders: install-deps
	scripts/fuzz-decoders.sh $(or $(RUNS),1000000) $(SECONDS)

bench: install-deps
	$(SWIFT) build -c release --product parla
	Benchmarks/run.sh
	Benchmarks/speech.sh
	Benchmarks/speech-raters.sh
	Benchmarks/speech-split.sh
	Benchmarks/speech-http.sh
	Benchmarks/learning.sh
	Benchmarks/lessons.sh
	Benchmarks/course.sh
	Benchmarks/spelling.sh
	Benchmarks/leaderboards.sh
	Benchmarks/purchases.sh
	Benchmarks/school.sh
	Benchmarks/analytics.sh

# The English speech sequence scorer (issue 36), trained on speechocean762's
# train split in training/.venv: writes Models/en/scorer.json and the
# fixture Swift's inference is tested against (scripts/train-speech.sh says
# what it needs). Not part of test or bench: the corpus stays outside.
train-speech: install-deps
	$(SWIFT) build -c release --product parla
	scripts/train-speech.sh

# Soak (issue 20, item 4): 30 minutes of steady mixed load on a release
# server (learners taking lessons, players playing games, readers): p50/p99
# per kind and memory per minute, errors (must be 0), p99 of the steady
# run's first and last third and the RSS slope (Benchmarks/soak.sh;
# DURATION, WINDOW, LEARNERS, PLAYERS as it says). Not part of bench: it
# takes half an hour.
soak: install-deps
	$(SWIFT) build -c release --product parla
	Benchmarks/soak.sh

# The tree's layout, as .swift-format says: `make format` rewrites it,
# `make test` checks it first (a second or two).
format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests Package.swift

format-check:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift

clean:
	rm -rf .build
