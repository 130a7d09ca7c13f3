"""Each phone of another language's model as the English scorer knows it (issue 36, must-have 6).

The sequence scorer is trained on en-us's phones: its phone embedding and
its LPP/LPR inputs are per en-us phone. To score French, Italian, German or
Spanish with it, each of that model's phones is carried to the en-us phone
of the same IPA, else to cmudict's usual phone for it (`ALIASES`), else to
the nearest of its class by the IPA features
`substitutions.py` measures (vowels: height, backness, rounding, nasality,
length; consonants: place, manner, voicing); a diphthong or affricate the
tables lack goes by its first sound. Writes Models/<lang>/transfer.json
(`PhoneTransfer` in Swift): {"format", "scorer", "phones": {model phone:
en-us phone}, "source"}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from substitutions import distance, features_of

HERE = os.path.dirname(os.path.abspath(__file__))
ENGLISH_IPA = os.path.join(HERE, "..", "Models", "phonemaps", "arpabet-ipa.json")


# What cmudict writes for sounds en-us has no phone of its own IPA for: the
# reduced vowel (AH0), /e/ and /o/ (EY, OW: their first sounds), open /a/,
# every rhotic, the velar fricative; and ASCII g for IPA ɡ.
ALIASES = {"ə": "AH", "e": "EY", "o": "OW", "a": "AA", "ʁ": "R", "r": "R", "ɾ": "R", "ʀ": "R", "x": "HH", "ʝ": "Y",
           "g": "G"}


def english_phone(ipa: str, english: dict[str, str]) -> str:
    """The en-us phone for one IPA phone: the same IPA, else cmudict's usual
    phone for it, else the nearest of its class."""
    same = sorted(p for p, i in english.items() if i == ipa)
    if same:
        return same[0]
    if ipa in ALIASES or ipa.rstrip("ː") in ALIASES:
        return ALIASES.get(ipa) or ALIASES[ipa.rstrip("ː")]
    own = features_of(ipa)
    if own is None and ipa:
        # A diphthong, an affricate or a symbol the tables lack: its first sound.
        own = features_of(ipa[0]) or (features_of(ipa[:2]) if len(ipa) > 1 else None)
    if own is None:
        return "SIL"
    near = sorted((distance(own, f), p) for p, i in english.items() if i and (f := features_of(i)) and f[0] == own[0])
    return near[0][1] if near else "SIL"


def transfer(phone_ipa: dict[str, str], english: dict[str, str]) -> dict[str, str]:
    return {phone: ("SIL" if not ipa else english_phone(ipa, english)) for phone, ipa in sorted(phone_ipa.items())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("phone_ipa", help="the model's phones -> IPA (Models/phonemaps/<ipa>.json)")
    parser.add_argument("--read-backwards", action="store_true",
                        help="the file is a phone map (IPA -> phones, Models/phonemaps/ipa-<lang>.json)")
    parser.add_argument("--scorer", default="en/scorer.json", help="the scorer's weights, under Models/")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    phone_ipa = json.load(open(args.phone_ipa))
    if args.read_backwards:
        # A phone map (IPA -> phones) read backwards: a phone's first IPA in order.
        backwards: dict[str, str] = {}
        for ipa, phone in sorted(phone_ipa.items()):
            if phone and " " not in phone and phone not in backwards:
                backwards[phone] = ipa
        phone_ipa = backwards
    phones = transfer(phone_ipa, json.load(open(ENGLISH_IPA)))
    document = {"format": "parla-phone-transfer-1", "scorer": args.scorer, "phones": phones,
                "source": (f"training/phone_transfer.py {os.path.basename(args.phone_ipa)}"
                           f"{' --read-backwards' if args.read_backwards else ''}: each phone as the en-us phone of "
                           f"its IPA, else the nearest of its class")}
    with open(args.out, "w") as f:
        json.dump(document, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print(f"{args.out}: " + " ".join(f"{p}>{e}" for p, e in phones.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
