"""Per-phone inputs and targets for the GOPT-style scorer (issue 36).

Reads Parla's feature dump (`parla speech evaluate --features DIR`: one JSON
object a line, {"id", "speaker", "accuracy", "total", "score": AttemptScore,
"evidence": [PhoneEvidence or null], "cpu"}) and the corpus's scores.jsonl
(speechocean762 in so762 format), pairs Parla's words and phones with the
raters' ones exactly as Sources/ParlaSpeech/Agreement.swift (pairWords,
pairPhones) and Evaluation.swift (RatedUtterance.pairs) do, and builds one
token per phone:

* every canonical phone of the raters' words, in order, carries the phone
  target (the raters' mean, 0-2). When Parla scored a phone paired with it,
  the token's inputs are that phone's; otherwise (an omitted word, a word
  Parla did not pair, a phone the alignment deleted) the token has the
  missing-evidence inputs (zeros, `missing` = 1) and the canonical phone's
  identity;
* a phone Parla scored in a paired word with no canonical partner (its
  dictionary's pronunciation was longer) is a token too, as it is at run
  time, with the word and utterance targets but no phone target.

Every input is computable at run time from Parla's own AttemptScore and
evidence: nothing here reads the raters' phones except to place targets. A
token's phone identity is Parla's phone label (CMU without stress digits),
or the canonical phone's (stress digits dropped) for a missing token.

A mismatched dump (`parla speech evaluate --mismatched`: recording A scored
as an attempt at utterance B's text, id "A~B") gives wrong-phrase examples:
B's tokens and inputs built as above from A's attempt, the targets 0 (or
unknown: stress, fluency, prosody) as raters would score another sentence
(`load_mismatched`).

Only the standard library and numpy. `python3 features.py --check` runs the
self-checks; `python3 features.py --features F --scores S` prints a summary.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import struct
import sys
from dataclasses import dataclass, field

import numpy as np

MDEF_CANDIDATES = [
    "/usr/share/pocketsphinx/model/en-us/en-us/mdef",
]


def read_mdef_phones(path: str) -> list[str]:
    """The context-independent phones of a binary Sphinx mdef, in order
    (as ModelDefinition.swift reads them), fillers ('+...') included."""
    data = open(path, "rb").read()
    if data.startswith(b"0.3\n"):  # text mdef: "<n> n_base" then phone lines after the header
        lines = [l.split() for l in data.decode().splitlines() if l and not l.startswith("#")]
        n_base = next(int(l[0]) for l in lines if len(l) == 2 and l[1] == "n_base")
        body = [l for l in lines if len(l) >= 6 and l[1] == "-" and l[2] == "-" and l[3] == "-"]
        return [l[0] for l in body[:n_base]]
    pos = 0

    def i32() -> int:
        nonlocal pos
        (v,) = struct.unpack_from("<i", data, pos)
        pos += 4
        return v

    if i32() != 0x46444D42:
        raise ValueError(f"{path}: not a little-endian binary model definition")
    i32()  # version
    description = i32()  # the format's description, in text
    pos += description
    counts = [i32() for _ in range(10)]
    phones = []
    for _ in range(counts[0]):
        end = data.index(0, pos)
        phones.append(data[pos:end].decode())
        pos = end + 1
    return phones


def model_phones(mdef: str | None = None) -> list[str]:
    """The phones of PhoneEvidence.posteriors: the mdef's, fillers left out."""
    paths = [mdef] if mdef else MDEF_CANDIDATES
    for path in paths:
        if path and os.path.exists(path):
            return [p for p in read_mdef_phones(path) if not p.startswith("+")]
    # The Debian pocketsphinx-en-us model's, as its mdef lists them.
    return ("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH SIL T TH UH UW "
            "V W Y Z ZH").split()


# ---------------------------------------------------------------- pairing


def _norm_word(word: str) -> str:
    return "".join(c for c in word.lower() if c.isalpha() or c == "'")


def pair_words(human: list[str], scored: list[str]) -> list[tuple[int, int]]:
    """Agreement.pairWords: each human word takes the next scored word with
    its text (case and all but letters and apostrophes ignored)."""
    scored_text = [_norm_word(w) for w in scored]
    pairs, nxt = [], 0
    for h, word in enumerate(human):
        text = _norm_word(word)
        for k in range(min(nxt, len(scored_text)), len(scored_text)):
            if scored_text[k] == text:
                pairs.append((h, k))
                nxt = k + 1
                break
    return pairs


def base_phone(phone: str) -> str:
    return "".join(c for c in phone.upper() if not c.isdigit())


def pair_phones(human: list[str], scored: list[str]) -> list[tuple[int, int]]:
    """Agreement.pairPhones: fewest-edit alignment (stress digits and case
    ignored), the same tie-breaking (diagonal, then deletion, then insertion)."""
    a, b = [base_phone(p) for p in human], [base_phone(p) for p in scored]
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return []
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n or j == m:
                cost[i][j] = (n - i) + (m - j)
            else:
                cost[i][j] = min(cost[i + 1][j + 1] + (0 if a[i] == b[j] else 1), cost[i + 1][j] + 1, cost[i][j + 1] + 1)
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if cost[i][j] == cost[i + 1][j + 1] + (0 if a[i] == b[j] else 1):
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif cost[i][j] == cost[i + 1][j] + 1:
            i += 1
        else:
            j += 1
    return pairs


def speaker_of(utt_id: str) -> str:
    """The corpus's speaker: the id's second to fifth digits."""
    return utt_id[1:5]


# ---------------------------------------------------------------- inputs

WORD_ERRORS = ["none", "mispronounced", "omitted"]
POSITIONS = ["begin", "inside", "end", "single"]
UTTERANCE_TARGETS = ["accuracy", "completeness", "fluency", "prosodic", "total"]
WORD_TARGETS = ["accuracy", "stress", "total"]


def scalar_feature_names() -> list[str]:
    return (
        ["logPosterior", "gapToBest", "otherShare", "lppOwn", "lppMargin", "phoneScore", "logDuration", "pauseBefore",
         "pauseAfter"]
        + ["energy", "energyInWord"]
        + ["wordScore"] + [f"wordError.{e}" for e in WORD_ERRORS] + [f"position.{p}" for p in POSITIONS]
        + ["wordPhones", "wordMeanLogPosterior", "wordMinLogPosterior", "wordMeanPhoneScore", "wordLogDuration"]
        + ["overall", "accuracy", "completeness", "fluency", "goodness", "speechRate", "logDuration.utterance",
           "insertions", "passed", "utteranceMeanLogPosterior", "utteranceMissingShare"]
        + ["missing"]
    )


def feature_names(phones: list[str]) -> list[str]:
    """Names of the input vector's columns: LPP (one per model phone), LPR
    (canonical minus each phone), then the scalars."""
    return [f"lpp.{p}" for p in phones] + [f"lpr.{p}" for p in phones] + scalar_feature_names()


@dataclass
class Utterance:
    id: str
    speaker: str
    x: np.ndarray  # [T, F] float32 raw inputs
    phone: np.ndarray  # [T] int: index into the model's phones
    word: np.ndarray  # [T] int: index of the raters' word (word targets)
    phone_target: np.ndarray  # [T] float32, nan where the token has none
    word_targets: np.ndarray  # [W, 3] accuracy, stress, total
    utt_targets: np.ndarray  # [5]
    stats: dict = field(default_factory=dict)


def _log_duration(seconds: float) -> float:
    return math.log(max(seconds, 0.01))


def build_utterance(record: dict, line: dict, phones: list[str]) -> Utterance:
    """The tokens, inputs and targets of one utterance (see the module doc)."""
    index = {p: k for k, p in enumerate(phones)}
    silence = index.get("SIL", -1)
    n_ph = len(phones)
    names = scalar_feature_names()
    col = {n: 2 * n_ph + k for k, n in enumerate(names)}
    width = 2 * n_ph + len(names)

    score = line["score"]
    swords = score["words"]
    evidence = line.get("evidence") or []
    # Evidence is one entry per phone of the alignment's path, fillers left
    # out; the scored words' phones are a prefix of that path (wordsOfPath
    # gives up at the first word the path does not complete, and every word
    # after it is omitted), so the first entries are the scored phones', in
    # the words' order, and any others belong to a word left incomplete.
    offsets, total = [], 0
    for w in swords:
        offsets.append(total)
        total += len(w["phones"])
    evidence_ok = len(evidence) >= total
    stats = {"evidence_mismatch": 0 if evidence_ok else 1, "evidence_trailing": max(0, len(evidence) - total)}

    def ev(word: int, phone: int):
        if not evidence_ok:
            return None
        return evidence[offsets[word] + phone]

    # Pauses: the time between one scored phone and the next, in the utterance.
    flat_times = [(p["start"], p["end"]) for w in swords for p in w["phones"]]
    pause_before, pause_after = [], []
    for k, (s, e) in enumerate(flat_times):
        pause_before.append(max(0.0, s - flat_times[k - 1][1]) if k > 0 else 0.0)
        pause_after.append(max(0.0, flat_times[k + 1][0] - e) if k + 1 < len(flat_times) else 0.0)

    # Utterance-level inputs.
    all_lp = [e["logPosterior"] for e in evidence if e is not None] if evidence_ok else []
    utt_vals = {
        "overall": score["overall"] / 100.0, "accuracy": score["accuracy"] / 100.0,
        "completeness": score["completeness"] / 100.0, "fluency": score["fluency"] / 100.0,
        # Goodness, nats a frame, floored at -10 (an attempt with no word scored has -99).
        "goodness": max(score["goodness"], -10.0), "speechRate": score["speechRate"],
        "logDuration.utterance": _log_duration(score["duration"]), "insertions": float(score["insertions"]),
        "passed": 1.0 if score["passed"] else 0.0,
        "utteranceMeanLogPosterior": float(np.mean(all_lp)) if all_lp else 0.0,
    }

    hwords = record["words"]
    word_pairs = dict(pair_words([w["text"] for w in hwords], [w["text"] for w in swords]))
    rows, phone_ids, word_ids, phone_t = [], [], [], []

    def word_inputs(row, sw_index, n_tokens, position):
        # Position in the word.
        if n_tokens == 1:
            pos = "single"
        elif position == 0:
            pos = "begin"
        elif position == n_tokens - 1:
            pos = "end"
        else:
            pos = "inside"
        row[col[f"position.{pos}"]] = 1.0
        row[col["wordPhones"]] = float(n_tokens)
        if sw_index is None:
            row[col["wordError.omitted"]] = 1.0
            return
        sw = swords[sw_index]
        row[col["wordScore"]] = sw["score"] / 100.0
        row[col[f"wordError.{sw.get('error', 'none')}"]] = 1.0
        lps = [e["logPosterior"] for j in range(len(sw["phones"])) if (e := ev(sw_index, j)) is not None]
        if lps:
            row[col["wordMeanLogPosterior"]] = float(np.mean(lps))
            row[col["wordMinLogPosterior"]] = float(np.min(lps))
        if sw["phones"]:
            row[col["wordMeanPhoneScore"]] = float(np.mean([p["score"] for p in sw["phones"]])) / 100.0
            row[col["wordLogDuration"]] = _log_duration(sw["phones"][-1]["end"] - sw["phones"][0]["start"])

    def phone_inputs(row, sw_index, j, label):
        p = swords[sw_index]["phones"][j]
        flat = offsets[sw_index] + j
        row[col["phoneScore"]] = p["score"] / 100.0
        row[col["logDuration"]] = _log_duration(p["end"] - p["start"])
        # Pauses in seconds, at most one: a longer one says no more.
        row[col["pauseBefore"]] = min(pause_before[flat], 1.0)
        row[col["pauseAfter"]] = min(pause_after[flat], 1.0)
        e = ev(sw_index, j)
        if e is not None and e.get("energy") is not None:
            # Tens of dB: against the attempt's phones, and against the word's loudest (stress).
            loudest = max(x["energy"] for k in range(len(swords[sw_index]["phones"]))
                          if (x := ev(sw_index, k)) is not None and x.get("energy") is not None)
            row[col["energy"]] = e["energy"] / 10.0
            row[col["energyInWord"]] = (e["energy"] - loudest) / 10.0
        if e is None or not e.get("posteriors"):
            row[col["missing"]] = 1.0
            if e is not None:
                row[col["logPosterior"]] = e["logPosterior"]
                row[col["gapToBest"]] = e["gapToBest"]
                row[col["otherShare"]] = e["otherShare"]
            return
        lpp = np.asarray(e["posteriors"], dtype=np.float64)
        if len(lpp) != n_ph:
            raise ValueError(f"{line['id']}: {len(lpp)} posteriors, the model has {n_ph} phones")
        row[:n_ph] = lpp
        own = index.get(label)
        if own is not None:
            row[n_ph:2 * n_ph] = lpp[own] - lpp
            # The phone's own LPP, and its margin over the best other phone (silence apart).
            others = [lpp[k] for k in range(n_ph) if k != own and k != silence]
            row[col["lppOwn"]] = lpp[own]
            row[col["lppMargin"]] = lpp[own] - max(others)
        row[col["logPosterior"]] = e["logPosterior"]
        row[col["gapToBest"]] = e["gapToBest"]
        row[col["otherShare"]] = e["otherShare"]

    missing_tokens = 0
    for h, hw in enumerate(hwords):
        canon = hw["phones"]
        acc = hw["phones-accuracy"]
        sw_index = word_pairs.get(h)
        scored_phones = [p["phone"] for p in swords[sw_index]["phones"]] if sw_index is not None else []
        # The word's tokens: canonical phones with their partner (or none),
        # and scored phones with no canonical partner, in order.
        tokens = []  # (canonical index or None, scored index or None)
        pp = pair_phones(canon, scored_phones)
        ci = si = 0
        for (a, b) in pp + [(len(canon), len(scored_phones))]:
            while ci < a:
                tokens.append((ci, None)); ci += 1
            while si < b:
                tokens.append((None, si)); si += 1
            if a < len(canon) and b < len(scored_phones):
                tokens.append((a, b)); ci, si = a + 1, b + 1
        for position, (c, s) in enumerate(tokens):
            row = np.zeros(width, dtype=np.float64)
            for name, value in utt_vals.items():
                row[col[name]] = value
            word_inputs(row, sw_index, len(tokens), position)
            if s is not None:
                label = scored_phones[s]
                phone_inputs(row, sw_index, s, label)
            else:
                label = base_phone(canon[c])
                row[col["missing"]] = 1.0
                missing_tokens += 1
            rows.append(row)
            phone_ids.append(index.get(label, index.get("SIL", 0)))
            word_ids.append(h)
            phone_t.append(float(acc[c]) if c is not None and c < len(acc) else math.nan)
    x = np.stack(rows) if rows else np.zeros((0, width))
    if len(rows):
        x[:, col["utteranceMissingShare"]] = missing_tokens / len(rows)
    word_targets = np.array([[float(w[k]) for k in WORD_TARGETS] for w in hwords], dtype=np.float32)
    utt_targets = np.array([float(record[k]) for k in UTTERANCE_TARGETS], dtype=np.float32)
    stats.update(tokens=len(rows), missing=missing_tokens, extra=int(np.isnan(phone_t).sum()) if rows else 0,
                 unpaired_words=len(hwords) - len(word_pairs))
    return Utterance(line["id"], speaker_of(line["id"]), x.astype(np.float32), np.array(phone_ids, dtype=np.int64),
                     np.array(word_ids, dtype=np.int64), np.array(phone_t, dtype=np.float32), word_targets, utt_targets,
                     stats)


def read_jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def load_split(features_path: str, scores_path: str, phones: list[str]) -> list[Utterance]:
    """Every utterance of `scores_path` that `features_path` scored, paired,
    in the scores' order."""
    lines = {l["id"]: l for l in read_jsonl(features_path)}
    out = []
    for record in read_jsonl(scores_path):
        line = lines.get(record["id"])
        if line is not None:
            out.append(build_utterance(record, line, phones))
    return out


# ---------------------------------------------------------------- wrong-phrase attempts


def mismatched_ids(line_id: str) -> tuple[str, str]:
    """A mismatched line's id "<recording>~<text's utterance>": the
    recording's id (whose audio was scored) and the text's."""
    recording, sep, text = line_id.partition("~")
    if not sep or not recording or not text:
        raise ValueError(f"{line_id!r}: not a mismatched id (<recording>~<text's utterance>)")
    return recording, text


def mismatched_record(record: dict) -> dict:
    """The raters' record of an attempt at `record`'s text that says another
    sentence (the wrong phrase): every score 0 where raters would give 0,
    unknown (NaN, masked in the loss) where 0 would claim too much (word
    stress, utterance fluency and prosody). Words, texts and canonical
    phones are the text's."""
    words = [{**w, "accuracy": 0.0, "total": 0.0, "stress": math.nan,
              "phones-accuracy": [0.0] * len(w["phones-accuracy"])} for w in record["words"]]
    return {**record, "accuracy": 0.0, "completeness": 0.0, "fluency": math.nan, "prosodic": math.nan,
            "total": 0.0, "words": words}


def build_mismatched(record: dict, line: dict, phones: list[str]) -> Utterance:
    """A mismatched line (`parla speech evaluate --mismatched`: recording A
    scored as an attempt at utterance B's text, id "A~B"), with `record`
    B's scores: the tokens and inputs exactly as for a normal line of B's
    text, the targets `mismatched_record`'s (canonical phones 0, extra
    phones none). The speaker (for folds) is the recording's: `speaker_of`
    reads the id's start."""
    recording, text = mismatched_ids(line["id"])
    if record["id"] != text:
        raise ValueError(f"{line['id']}: the text's record is {text}, not {record['id']}")
    return build_utterance(mismatched_record(record), line, phones)


def load_mismatched(features_path: str, scores_path: str, phones: list[str]) -> list[Utterance]:
    """Every line of a mismatched dump (`<split>-mismatched.jsonl`), the
    targets built from the same split's scores.jsonl, in the scores' order
    of the recordings (then the texts'). Both the recording and the text
    must be utterances of that scores file: a dump of another split is an
    error, not an empty set."""
    records = {r["id"]: r for r in read_jsonl(scores_path)}
    order = {i: k for k, i in enumerate(records)}
    lines = read_jsonl(features_path)
    for l in lines:
        recording, text = mismatched_ids(l["id"])
        for which, uid in (("recording", recording), ("text", text)):
            if uid not in records:
                raise ValueError(f"{features_path}: {l['id']}: the {which} {uid} is not in {scores_path}")
    lines.sort(key=lambda l: tuple(order[i] for i in mismatched_ids(l["id"])))
    return [build_mismatched(records[mismatched_ids(l["id"])[1]], l, phones) for l in lines]


def summary(utts: list[Utterance]) -> dict:
    keys = ["tokens", "missing", "extra", "unpaired_words", "evidence_mismatch", "evidence_trailing"]
    s = {k: int(sum(u.stats.get(k, 0) for u in utts)) for k in keys}
    s["utterances"] = len(utts)
    s["speakers"] = len({u.speaker for u in utts})
    s["max_tokens"] = max((len(u.phone) for u in utts), default=0)
    return s


# ---------------------------------------------------------------- checks


def _self_check() -> None:
    # pairWords: skips scored words in between, ignores case and punctuation.
    assert pair_words(["We", "call", "it"], ["we", "um", "CALL", "it."]) == [(0, 0), (1, 2), (2, 3)]
    assert pair_words(["a", "b"], ["b"]) == [(1, 0)]
    assert pair_words(["b", "a"], ["a", "b"]) == [(0, 1)]
    # pairPhones: substitutions pair, insertions and deletions do not.
    assert pair_phones(["K", "AO0", "L"], ["K", "AO", "L"]) == [(0, 0), (1, 1), (2, 2)]
    assert pair_phones(["B", "EH0", "R"], ["B", "R"]) == [(0, 0), (2, 1)]
    assert pair_phones(["T"], ["D", "T"]) == [(0, 1)]
    assert pair_phones(["IH0", "T"], ["AH", "T"]) == [(0, 0), (1, 1)]
    assert pair_phones([], ["A"]) == []
    assert speaker_of("000240115") == "0024"
    phones = model_phones()
    assert len(phones) == 40 and phones[0] == "AA" and "SIL" in phones, phones
    # A synthetic utterance: the second word omitted, a deleted and an extra phone.
    post = [-5.0] * len(phones)
    record = {"id": "000010011", "accuracy": 8, "completeness": 10, "fluency": 9, "prosodic": 9, "total": 7,
              "words": [{"text": "WE", "accuracy": 10, "total": 10, "stress": 10, "phones": ["W", "IY0"],
                         "phones-accuracy": [2, 1.8]},
                        {"text": "CALL", "accuracy": 3, "total": 3, "stress": 10, "phones": ["K", "AO0", "L"],
                         "phones-accuracy": [0, 0, 0]},
                        {"text": "BEAR", "accuracy": 6, "total": 6, "stress": 5, "phones": ["B", "EH0", "R"],
                         "phones-accuracy": [2, 1, 1]}]}

    def ph(p, s, e):
        return {"phone": p, "start": s, "end": e, "score": 70.0}

    score = {"overall": 60.0, "accuracy": 70.0, "completeness": 66.7, "fluency": 80.0, "goodness": -2.0,
             "speechRate": 10.0, "duration": 2.0, "insertions": 0, "passed": True,
             "words": [{"text": "we", "score": 80.0, "error": "none", "phones": [ph("W", 0.1, 0.2), ph("IY", 0.2, 0.3)]},
                       {"text": "call", "score": 0.0, "error": "omitted", "phones": []},
                       {"text": "bear", "score": 40.0, "error": "mispronounced",
                        "phones": [ph("B", 0.5, 0.6), ph("EY", 0.6, 0.7), ph("AH", 0.7, 0.8), ph("R", 0.8, 0.9)]}]}
    evid = [{"logPosterior": -1.0, "gapToBest": -0.5, "otherShare": 0.2, "heardAs": "AA", "posteriors": post, "energy": db}
            for db in [0.0, -2.0, 4.0, 1.0, -6.0, 2.0]]
    evid[0] = None
    u = build_utterance(record, {"id": "000010011", "score": score, "evidence": evid}, phones)
    assert u.stats["evidence_mismatch"] == 0
    # WE: 2, CALL: 3 missing, BEAR: B EY(~EH0) AH(extra) R -> 4 tokens.
    assert len(u.phone) == 9, len(u.phone)
    assert list(u.word) == [0, 0, 1, 1, 1, 2, 2, 2, 2]
    pt = u.phone_target
    assert np.isnan(pt[7]) and np.isnan(pt).sum() == 1 and pt[6] == 1 and pt[8] == 1, pt
    names = feature_names(phones)
    miss = names.index("missing")
    assert list(u.x[:, miss]) == [1, 0, 1, 1, 1, 0, 0, 0, 0], u.x[:, miss]  # first: null evidence
    assert u.x[2, names.index("wordError.omitted")] == 1
    assert u.x[5, names.index("position.begin")] == 1 and u.x[8, names.index("position.end")] == 1
    assert u.phone[6] == phones.index("EY") and u.phone[2] == phones.index("K")
    assert abs(u.x[6, names.index("pauseBefore")] - 0.0) < 1e-9 and abs(u.x[5, names.index("pauseBefore")] - 0.2) < 1e-6
    assert u.word_targets.shape == (3, 3) and list(u.utt_targets) == [8, 10, 9, 9, 7]
    # Energy in tens of dB: the phone's, and against its word's loudest (IY alone in WE; B the loudest of BEAR).
    energy, in_word = names.index("energy"), names.index("energyInWord")
    assert np.allclose(u.x[:, energy], [0, -0.2, 0, 0, 0, 0.4, 0.1, -0.6, 0.2]), u.x[:, energy]
    assert np.allclose(u.x[:, in_word], [0, 0, 0, 0, 0, 0, -0.3, -1.0, -0.2]), u.x[:, in_word]
    # The same attempt as a wrong-phrase one ("A~B": recording A, this record B's text): the
    # same tokens and inputs, the targets 0 (canonical phones, word accuracy and total, the
    # utterance's accuracy, completeness and total) or unknown (stress, fluency, prosody).
    mid = "000020033~000010011"
    m = build_mismatched(record, {"id": mid, "score": score, "evidence": evid}, phones)
    assert m.id == mid and m.speaker == "0002" and mismatched_ids(mid) == ("000020033", "000010011")
    assert np.array_equal(m.x, u.x) and np.array_equal(m.phone, u.phone) and np.array_equal(m.word, u.word)
    assert np.array_equal(np.isnan(m.phone_target), np.isnan(u.phone_target)), m.phone_target
    assert np.all(m.phone_target[~np.isnan(m.phone_target)] == 0)
    assert np.all(m.word_targets[:, [0, 2]] == 0) and np.all(np.isnan(m.word_targets[:, 1]))
    assert np.array_equal(np.isnan(m.utt_targets), [False, False, True, True, False]), m.utt_targets
    assert np.all(np.nan_to_num(m.utt_targets) == 0) and m.stats == u.stats
    assert record["accuracy"] == 8 and record["words"][0]["phones-accuracy"] == [2, 1.8]  # record untouched
    for bad in ["000010011", "~000010011", "000020033~"]:
        try:
            mismatched_ids(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(bad)
    try:
        build_mismatched(record, {"id": "000020033~000010012", "score": score, "evidence": evid}, phones)
    except ValueError:
        pass
    else:
        raise AssertionError("a record that is not the text's")
    print("features.py: self-checks passed")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="run the self-checks")
    ap.add_argument("--features", help="Parla's feature dump (jsonl)")
    ap.add_argument("--scores", help="the corpus's scores.jsonl")
    ap.add_argument("--mismatched", action="store_true",
                    help="--features is a mismatched dump (<split>-mismatched.jsonl; --scores: the same split's)")
    ap.add_argument("--mdef", help="the acoustic model's mdef (default: Debian's pocketsphinx-en-us)")
    args = ap.parse_args(argv)
    if args.check:
        _self_check()
    if args.features and args.scores:
        load = load_mismatched if args.mismatched else load_split
        utts = load(args.features, args.scores, model_phones(args.mdef))
        print(json.dumps(summary(utts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
