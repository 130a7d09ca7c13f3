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
    parser.add_argument("--train-features", required=True)
    parser.add_argument("--train-scores", required=True)
    parser.add_argument("--out")
    parser.add_argument("--agreement", action="store_true",
                        help="only report how the substitutes taken in --train-features agree with the raters")
    parser.add_argument("--penalty", type=float, default=39.14)
    parser.add_argument("--min-count", type=int, default=3)
    parser.add_argument("--min-share", type=float, default=0.07)
    parser.add_argument("--most", type=int, default=3)
    args = parser.parse_args(argv)
    if args.agreement:
        print(json.dumps(agreement(args.train_features, args.train_scores), indent=1))
        return 0
    if not args.out:
        parser.error("--out is needed")
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
