"""The phones learners say instead of each en-us phone (issue 36, must-have 5).

Reads the train split's feature dump and scores (as train_scorer.py does)
and, for every canonical phone the raters scored wrong (their mean below
1 of 2), finds the other phone its frames' posteriors favour (silence
apart). A phone's likely substitutes are those found at least `--min-count`
times and for at least `--min-share` of its wrong instances, of the same
class (vowel for vowel, consonant for consonant: across classes the pair is
the alignment's blur, an "L" heard in a dark vowel, not a learner's
substitution), at most `--most` of them, most frequent first.

Writes Models/en/substitutions.json (PhoneSubstitutions in Swift). The
grammar's `--penalty` (nats: each substitute's weight is e^-penalty, the
phone's 1) was chosen by measuring, on train-split speech, how the
alignment's substitutions agree with the raters; see training/README.md.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys

import numpy as np

import features as F

VOWELS = set("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split())


def table(utts, phones, min_count: int, min_share: float, most: int) -> dict[str, list[str]]:
    n = len(phones)
    silence = phones.index("SIL")
    missing = 2 * n + F.scalar_feature_names().index("missing")
    wrong = collections.Counter()
    wrong_of = collections.Counter()
    for u in utts:
        for t in range(len(u.phone)):
            target = u.phone_target[t]
            if np.isnan(target) or u.x[t, missing] > 0 or target >= 1.0:
                continue
            p = int(u.phone[t])
            lpp = u.x[t, :n].astype(np.float64).copy()
            lpp[p] = lpp[silence] = -np.inf
            q = int(np.argmax(lpp))
            wrong[(p, q)] += 1
            wrong_of[p] += 1
    result = {}
    for p in range(n):
        if p == silence or wrong_of[p] == 0:
            continue
        same_class = [(count, q) for (pp, q), count in wrong.items()
                      if pp == p and (phones[q] in VOWELS) == (phones[p] in VOWELS)
                      and count >= min_count and count / wrong_of[p] >= min_share]
        chosen = [phones[q] for count, q in sorted(same_class, key=lambda cq: (-cq[0], phones[cq[1]]))[:most]]
        if chosen:
            result[phones[p]] = chosen
    return result


# Phonetic classes for the other languages' tables (must-have 6): no rated
# learner speech to learn from, so a phone's likely substitutes are its
# nearest phones of the same class in the model. Vowels: height (0 close to
# 6 open), backness (0 front, 1 central, 2 back), rounding, nasality, length.
# Consonants: place (0 bilabial ... 9 glottal), manner, voicing.
VOWEL_FEATURES = {
    "i": (0, 0, 0), "y": (0, 0, 1), "ɨ": (0, 1, 0), "u": (0, 2, 1), "ɪ": (1, 0, 0), "ʏ": (1, 0, 1), "ʊ": (1, 2, 1),
    "e": (2, 0, 0), "ø": (2, 0, 1), "o": (2, 2, 1), "ə": (3, 1, 0), "ɛ": (4, 0, 0), "œ": (4, 0, 1), "ɜ": (4, 1, 0),
    "ʌ": (4, 2, 0), "ɔ": (4, 2, 1), "æ": (5, 0, 0), "ɐ": (5, 1, 0), "a": (6, 0, 0), "ɑ": (6, 2, 0), "ɒ": (6, 2, 1),
    "ɝ": (3, 1, 0), "ɚ": (3, 1, 0),
}
# Place: 0 bilabial, 1 labiodental, 2 dental, 3 alveolar, 4 postalveolar,
# 5 palatal, 6 velar, 7 uvular, 9 glottal.
CONSONANT_FEATURES = {  # place, manner (0 stop, 1 fricative, 2 nasal, 3 approximant/liquid, 4 affricate), voiced
    "p": (0, 0, 0), "b": (0, 0, 1), "m": (0, 2, 1), "f": (1, 1, 0), "v": (1, 1, 1), "θ": (2, 1, 0), "ð": (2, 1, 1),
    "t": (3, 0, 0), "d": (3, 0, 1), "n": (3, 2, 1), "s": (3, 1, 0), "z": (3, 1, 1), "l": (3, 3, 1), "ɹ": (3, 3, 1),
    "r": (3, 3, 1), "ɾ": (3, 3, 1), "ʃ": (4, 1, 0), "ʒ": (4, 1, 1), "tʃ": (4, 4, 0), "dʒ": (4, 4, 1), "ts": (3, 4, 0),
    "j": (5, 3, 1), "ɲ": (5, 2, 1), "ʎ": (5, 3, 1), "ç": (5, 1, 0), "k": (6, 0, 0), "ɡ": (6, 0, 1), "ŋ": (6, 2, 1),
    "x": (6, 1, 0), "ɣ": (6, 1, 1), "w": (6, 3, 1), "ʁ": (7, 1, 1), "h": (9, 1, 0), "ʔ": (9, 0, 0), "ɥ": (5, 3, 1),
    "β": (0, 1, 1), "pf": (1, 4, 0),
}


def features_of(ipa: str):
    """(class, features) of one IPA phone, or None for a diphthong or a symbol the tables lack."""
    long = ipa.endswith("ː")
    base = ipa[:-1] if long else ipa
    nasal = base.endswith("\u0303")
    base = base[:-1] if nasal else base
    if base in VOWEL_FEATURES:
        return "vowel", VOWEL_FEATURES[base] + (int(nasal), int(long))
    if ipa in CONSONANT_FEATURES:
        return "consonant", CONSONANT_FEATURES[ipa]
    return None


def distance(a, b) -> float:
    kind, fa = a
    _, fb = b
    if kind == "vowel":  # height, backness, rounding, nasality, length
        weights = (1.0, 1.5, 1.0, 2.0, 0.5)
    else:  # place (a step), manner, voicing
        weights = (1.0, 2.0, 1.0)
    return sum(w * abs(x - y) for w, x, y in zip(weights, fa, fb))


def by_class(phone_ipa: dict[str, str], most: int, within: float) -> dict[str, list[str]]:
    """Each phone's nearest phones of its class in the model (at most `most`, within `within`)."""
    known = {p: features_of(i) for p, i in phone_ipa.items() if i and features_of(i)}
    result = {}
    for p, fp in sorted(known.items()):
        near = sorted((distance(fp, fq), q) for q, fq in known.items()
                      if q != p and fq[0] == fp[0] and phone_ipa[q] != phone_ipa[p])
        chosen = [q for d, q in near if d <= within][:most]
        if chosen:
            result[p] = chosen
    return result


def agreement(features_path: str, scores_path: str) -> dict:
    """How the substitutes the alignment took (PhoneEvidence.substitute in a
    dump made with them) agree with the raters: a taken substitute counts as
    a phone found wrong, a phone the raters' mean puts below 1 as wrong."""
    records = {r["id"]: r for r in F.read_jsonl(scores_path)}
    counts = collections.Counter()
    for line in F.read_jsonl(features_path):
        record = records.get(line["id"])
        if record is None:
            continue
        words, evidence = line["score"]["words"], line.get("evidence") or []
        offsets, total = [], 0
        for w in words:
            offsets.append(total)
            total += len(w["phones"])
        if len(evidence) < total:
            continue
        pairs = dict(F.pair_words([w["text"] for w in record["words"]], [w["text"] for w in words]))
        for h, human in enumerate(record["words"]):
            s = pairs.get(h)
            if s is None:
                continue
            scored = [p["phone"] for p in words[s]["phones"]]
            for a, b in F.pair_phones(human["phones"], scored):
                e = evidence[offsets[s] + b]
                if e is None:
                    continue
                taken, wrong = e.get("substitute") is not None, human["phones-accuracy"][a] < 1.0
                counts["phones"] += 1
                counts["taken"] += taken
                counts["wrong"] += wrong
                counts["both"] += taken and wrong
    precision = counts["both"] / max(1, counts["taken"])
    recall = counts["both"] / max(1, counts["wrong"])
    return dict(counts, precision=precision, recall=recall, f1=2 * precision * recall / max(1e-9, precision + recall))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train-features")
    parser.add_argument("--train-scores")
    parser.add_argument("--by-class", metavar="PHONE_IPA_JSON",
                        help="another language's table: its model's phones -> IPA (Models/phonemaps/<ipa>.json), "
                             "each phone's nearest of its class")
    parser.add_argument("--within", type=float, default=1.5, help="with --by-class: the largest distance kept")
    parser.add_argument("--read-backwards", action="store_true",
                        help="with --by-class: the file is a phone map (IPA -> phones, Models/phonemaps/ipa-<lang>.json)")
    parser.add_argument("--out")
    parser.add_argument("--agreement", action="store_true",
                        help="only report how the substitutes taken in --train-features agree with the raters")
    parser.add_argument("--penalty", type=float, default=39.14)
    parser.add_argument("--min-count", type=int, default=3)
    parser.add_argument("--min-share", type=float, default=0.07)
    parser.add_argument("--most", type=int, default=3)
    args = parser.parse_args(argv)
    if args.agreement:
        if not (args.train_features and args.train_scores):
            parser.error("--agreement needs --train-features and --train-scores")
        print(json.dumps(agreement(args.train_features, args.train_scores), indent=1))
        return 0
    if not args.out:
        parser.error("--out is needed")
    if args.by_class:
        phone_ipa = json.load(open(args.by_class))
        if args.read_backwards:
            # A phone map (IPA -> phones) read backwards: a phone's first IPA in order.
            backwards = {}
            for ipa, phone in sorted(phone_ipa.items()):
                if phone and " " not in phone and phone not in backwards:
                    backwards[phone] = ipa
            phone_ipa = backwards
        substitutes = by_class(phone_ipa, args.most, args.within)
        document = {"format": "parla-substitutions-1", "penalty": args.penalty, "substitutes": substitutes,
                    "source": (f"training/substitutions.py --by-class {os.path.basename(args.by_class)}"
                               f"{' --read-backwards' if args.read_backwards else ''}: each phone's nearest "
                               f"phones of its class (vowel height, backness, rounding, nasality, length; consonant place, "
                               f"manner, voicing), within {args.within}, at most {args.most}: no rated learner speech in "
                               f"this language")}
        with open(args.out, "w") as f:
            json.dump(document, f, indent=2, sort_keys=True, ensure_ascii=False)
            f.write("\n")
        print(f"{args.out}: {sum(map(len, substitutes.values()))} substitutes of {len(substitutes)} phones", file=sys.stderr)
        return 0
    if not (args.train_features and args.train_scores):
        parser.error("--train-features and --train-scores are needed")
    phones = F.model_phones()
    utts = F.load_split(args.train_features, args.train_scores, phones)
    substitutes = table(utts, phones, args.min_count, args.min_share, args.most)
    document = {
        "format": "parla-substitutions-1",
        "source": (f"training/substitutions.py on speechocean762's train split ({len(utts)} utterances): the phone the "
                   f"posteriors favour where raters scored a phone wrong, same class, at least {args.min_count} times and "
                   f"{args.min_share:.0%} of its wrong instances, at most {args.most}"),
        "penalty": args.penalty,
        "substitutes": substitutes,
    }
    with open(args.out, "w") as f:
        json.dump(document, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{args.out}: {sum(map(len, substitutes.values()))} substitutes of {len(substitutes)} phones", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
