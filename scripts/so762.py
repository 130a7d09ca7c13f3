#!/usr/bin/env python3
"""Helper of scripts/so762.sh (read its header first): builds OUT/train and
OUT/test, in the format of the so762-dev development set, from a bare git
copy of github.com/jimbozhang/speechocean762. Python 3.11, standard library
only. The corpus is CC BY 4.0: cite Zhang et al., Proc. Interspeech 2021
(arXiv:2104.01378). The data it writes must never be committed.

    python3 scripts/so762.py GIT_DIR OUT [DEV_DIR]

DEV_DIR (so762-dev) is optional: when given, the report printed at the end
also says how far the rebuilt targets agree with its hand-copied ones.

Sources inside the repository (all read through one `git cat-file --batch`):
  * HEAD: train/text, test/text, train/utt2spk, test/utt2spk,
    resource/text-phone (canonical CMU phones of every word) and
    WAVE/SPEAKERxxxx/<id>.WAV;
  * commit f22719f: dev/utt2score (= the train split) and test/utt2score,
    every rater's scores: five per word and phone; five per sentence score
    in 4,000 utterances, four in 1,000 (the fifth rater's sentence scores
    are missing), of which 60 get their fifth from 8046509:dev/utt2score.
    The released resource/scores.json is an LFS pointer in the mirror, so
    the released targets are recomputed:
      - word accuracy and stress: the raters' median;
      - word total and sentence accuracy, fluency, prosodic, total:
        floor of the raters' median (the release's integers; this matches
        every word of so762-dev);
      - phone accuracy: the raters' mean, each rater scoring a canonical
        phone 2 (plain), 1 ({X}) or 0 ((X)); inserted phones ([X]) are not
        canonical and are left out;
      - completeness: 10 x the share of words whose median accuracy is at
        least 2, to one decimal. The release's completeness is that, not
        the median of the raters' completeness (0.0-1.0); see the report
        printed at the end;
      - no `mispronunciations`: what was said instead is only in the
        released scores.json, which the mirror lacks.
    Every rater's own scores stay in `raters` (one object per rater).
"""
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

SCORES_COMMIT = 'f22719f'
# An early dummy utt2score (60 utterances of speakers 0001, 0003 and 0005)
# still has the fifth rater's sentence scores, which f22719f lacks for 1,000
# utterances; the released scores (e.g. 000030012: accuracy 9, total 9) use
# them.
EARLY_SCORES = '8046509:dev/utt2score'
SPLITS = {'train': 'dev/utt2score', 'test': 'test/utt2score'}  # dev was renamed train
SENTENCE_FIELDS = ('accuracy', 'completeness', 'fluency', 'prosodic', 'total')

# The raters' phones are the corpus's first phone set (Arpabet50). Each maps
# to one or two CMU phones (lexicon/phoneme_set.tsv at f22719f, and
# resource/text-phone for EE and AXR); stress digits are ignored when
# aligning, since only the phone identity is compared.
TO_CMU = {'AX': ['AH'], 'OO': ['AH'], 'EE': ['ER'], 'AXR': ['ER'],
          'AR': ['EH', 'R'], 'IR': ['IH', 'AH'], 'UR': ['UH', 'AH'],
          'DR': ['D', 'R'], 'TR': ['T', 'R'], 'TS': ['T', 'S'], 'DZ': ['D', 'Z']}


class Git:
    """One `git cat-file --batch` process for every object read."""

    def __init__(self, git_dir):
        env = dict(os.environ, GIT_NO_LAZY_FETCH='1', GIT_TERMINAL_PROMPT='0')
        self.git_dir = git_dir
        self.env = env
        self.proc = subprocess.Popen(['git', '--git-dir', git_dir, 'cat-file', '--batch'],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)

    def run(self, *args):
        return subprocess.run(['git', '--git-dir', self.git_dir, *args], check=True,
                              stdout=subprocess.PIPE, env=self.env).stdout.decode()

    def get(self, spec):
        self.proc.stdin.write(spec.encode() + b'\n')
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().decode().rstrip('\n')
        if header.endswith(' missing') or header.endswith(' ambiguous'):
            raise KeyError(f'{spec}: {header}')
        _, kind, size = header.split(' ')
        size = int(size)
        data = self.proc.stdout.read(size)
        self.proc.stdout.read(1)  # the newline after the contents
        if len(data) != size:
            raise IOError(f'{spec}: short read')
        return kind, data

    def text(self, spec):
        kind, data = self.get(spec)
        if kind != 'blob':
            raise KeyError(f'{spec} is a {kind}')
        if data.startswith(b'version https://git-lfs'):
            raise KeyError(f'{spec} is a Git LFS pointer, not the file')
        return data.decode('utf-8')

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def num(x):
    """2.0 -> 2, 1.6 -> 1.6 (so762-dev writes whole numbers without .0)."""
    x = round(float(x), 4)
    return int(x) if x == int(x) else x


def floor_median(values):
    return math.floor(statistics.median(values) + 1e-9)


def parse_marked(s):
    """'B {EH0} (R) [L]' -> ([('B', 2), ('EH0', 1), ('R', 0)], ['L'], 0).
    Returns canonical phones with this rater's score, inserted phones and
    the number of unbalanced brackets met (tolerated, counted)."""
    phones, inserted, issues = [], [], 0
    zero = accent = insert = 0
    for tok in re.findall(r'[()\[\]{}]|[^\s()\[\]{}]+', s):
        if tok == '[':
            insert += 1
        elif tok == ']':
            if insert:
                insert -= 1
            else:
                issues += 1
        elif insert:
            if tok not in '(){}':
                inserted.append(tok)
        elif tok == '(':
            zero += 1
        elif tok == ')':
            if zero:
                zero -= 1
            else:
                issues += 1
        elif tok == '{':
            accent += 1
        elif tok == '}':
            if accent:
                accent -= 1
            else:
                issues += 1
        else:
            phones.append((tok, 0 if zero else 1 if accent else 2))
    issues += zero + accent + insert
    return phones, inserted, issues


def base(phone):
    return re.sub(r'[0-9]+$', '', phone)


def to_cmu(phones):
    """[(old phone, score)] -> [(CMU phone, score, index of the old phone)]."""
    out = []
    for k, (p, score) in enumerate(phones):
        for q in TO_CMU.get(base(p), [base(p)]):
            out.append((q, score, k))
    return out


VOWELS = {'AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY',
          'UH', 'UW'}


def sub_cost(a, b):
    """0 for the same phone, 2 for vowel against vowel or consonant against
    consonant, 3 across (a gap costs 2)."""
    if a == b:
        return 0
    return 2 if (a in VOWELS) == (b in VOWELS) else 3


def align(canonical, rater):
    """Edit-distance alignment of the canonical phones (CMU, stress ignored)
    with one rater's phones: for each canonical phone, the index of the
    rater's phone it pairs with, or None."""
    c = [base(p) for p in canonical]
    r = [p[0] for p in rater]
    n, m = len(c), len(r)
    if c == r:
        return list(range(n))
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = 2 * i
    for j in range(1, m + 1):
        cost[0][j] = 2 * j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost[i][j] = min(cost[i - 1][j - 1] + sub_cost(c[i - 1], r[j - 1]),
                             cost[i - 1][j] + 2, cost[i][j - 1] + 2)
    pair = [None] * n
    i, j = n, m
    while i and j:
        if cost[i][j] == cost[i - 1][j - 1] + sub_cost(c[i - 1], r[j - 1]):
            pair[i - 1] = j - 1
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j] + 2:
            i -= 1
        else:
            j -= 1
    return pair


def word_phone_scores(canonical, marked_list, stats):
    """Per rater, the 0/1/2 score of every canonical phone of one word.

    The raters marked up phones of the corpus's first phone set, where one
    phone may be two CMU phones (AR = EH R, TS = T S, ...); the release
    scores such a unit as a whole, both CMU phones getting the same score.
    So: each rater's phones are aligned with the canonical ones; two
    neighbouring canonical phones that any rater wrote as one old phone form
    a unit; a phone a rater wrote that pairs with no canonical phone (and was
    not marked as inserted with [ ]) counts towards its neighbour; a
    canonical phone no rater phone pairs with takes its neighbours' score;
    and every phone of a unit takes the lowest score in it."""
    n = len(canonical)
    unit = list(range(n))

    def find(x):
        while unit[x] != x:
            x = unit[x]
        return x

    per_rater = []
    for marked in marked_list:
        phones, _, issues = parse_marked(marked)
        stats['unbalanced brackets'] = stats.get('unbalanced brackets', 0) + issues
        cmu = to_cmu(phones)
        pair = align(canonical, cmu)
        if [q for q, _, _ in cmu] != [base(p) for p in canonical]:
            stats['rater strings realigned'] = stats.get('rater strings realigned', 0) + 1
        for i in range(n - 1):
            a, b = pair[i], pair[i + 1]
            if a is not None and b is not None and cmu[a][2] == cmu[b][2]:
                unit[find(i + 1)] = find(i)
        got = [[cmu[j][1]] if j is not None else [] for j in pair]
        paired = set(j for j in pair if j is not None)
        for j in range(len(cmu)):
            if j in paired:
                continue
            before = [i for i in range(n) if pair[i] is not None and pair[i] < j]
            after = [i for i in range(n) if pair[i] is not None and pair[i] > j]
            near = before[-1:] + after[:1]
            if near:
                # the neighbour from the same old phone, else a mismatched
                # pair, else the one before
                near.sort(key=lambda i: (cmu[pair[i]][2] != cmu[j][2],
                                         cmu[pair[i]][0] == base(canonical[i]), pair[i] > j))
                got[near[0]].append(cmu[j][1])
        scores = [min(g) if g else None for g in got]
        for i in range(n):
            if scores[i] is None:  # the previous or next paired phone, mismatched first
                near = [x for x in (i - 1, i + 1) if 0 <= x < n and pair[x] is not None]
                near.sort(key=lambda x: (cmu[pair[x]][0] == base(canonical[x]), x > i))
                scores[i] = scores[near[0]] if near else 0
        per_rater.append(scores)
    groups = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    for scores in per_rater:
        for members in groups.values():
            low = min(scores[i] for i in members)
            for i in members:
                scores[i] = low
    return per_rater


def read_kaldi(text):
    out = {}
    for line in text.splitlines():
        if line.strip():
            key, _, value = line.strip().partition('\t') if '\t' in line else line.strip().partition(' ')
            out[key] = ' '.join(value.split())
    return out


def read_utt2score(text):
    out = {}
    for line in text.splitlines():
        if line.strip():
            utt, _, blob = line.partition('\t')
            out[utt] = json.loads(blob)
    return out


def read_text_phone(text):
    out = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        key, phones = line.split('\t')
        utt, index = key.split('.')
        out.setdefault(utt, {})[int(index)] = [re.sub(r'_[BIES]$', '', p) for p in phones.split()]
    return {u: [w[i] for i in range(len(w))] for u, w in out.items()}


def build_record(utt, raw, words_text, word_phones, stats):
    """One line of scores.jsonl from one utterance of utt2score."""
    if len(raw['words']) != len(words_text) or len(raw['words']) != len(word_phones):
        raise ValueError(f'{utt}: {len(raw["words"])} scored words, {len(words_text)} in text, '
                         f'{len(word_phones)} in text-phone')
    n_sent = len(raw['accuracy'])
    n_word = {len(w[f]) for w in raw['words'] for f in ('accuracy', 'total', 'stress', 'phones')}
    if len(n_word) != 1 or any(len(raw[f]) != n_sent for f in SENTENCE_FIELDS):
        raise ValueError(f'{utt}: ragged rater lists')
    n_raters = max(n_sent, n_word.pop())
    stats['raters', n_sent] = stats.get(('raters', n_sent), 0) + 1
    raters = [{} for _ in range(n_raters)]
    for f in SENTENCE_FIELDS:
        for k, v in enumerate(raw[f]):
            raters[k][f] = num(v)
    for k in range(n_raters):
        raters[k]['words'] = []
    words = []
    for w, text, canonical in zip(raw['words'], words_text, word_phones):
        if re.sub(r"[^A-Z']", '', w['text'].upper()) != re.sub(r"[^A-Z']", '', text):
            stats['word text differs'] = stats.get('word text differs', 0) + 1
        per_rater = word_phone_scores(canonical, w['phones'], stats)
        for k, marked in enumerate(w['phones']):
            raters[k]['words'].append({
                'accuracy': num(w['accuracy'][k]), 'stress': num(w['stress'][k]),
                'total': num(w['total'][k]), 'phones-marked': marked,
                'phones-accuracy': per_rater[k]})
        words.append({
            'text': text,
            'accuracy': num(statistics.median(w['accuracy'])),
            'total': floor_median(w['total']),
            'stress': num(statistics.median(w['stress'])),
            'phones': canonical,
            'phones-accuracy': [num(round(sum(col) / len(col), 2)) for col in zip(*per_rater)],
        })
    good = sum(1 for w in words if w['accuracy'] >= 2)
    return {
        'id': utt,
        'text': ' '.join(raw['text'].upper().split()),
        'accuracy': floor_median(raw['accuracy']),
        'completeness': num(round(10 * good / len(words), 1)),
        'fluency': floor_median(raw['fluency']),
        'prosodic': floor_median(raw['prosodic']),
        'total': floor_median(raw['total']),
        'words': words,
        'raters': raters,
    }


def wav_info(data):
    """((format, channels, rate, bits), bytes of samples) of a RIFF/WAVE
    file, or (None, 0)."""
    if len(data) < 12 or data[:4] != b'RIFF' or data[8:12] != b'WAVE':
        return None, 0
    fmt, samples, pos = None, 0, 12
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack('<I', data[pos + 4:pos + 8])[0]
        if cid == b'fmt ':
            v = struct.unpack('<HHIIHH', data[pos + 8:pos + 24])
            fmt = (v[0], v[1], v[2], v[5])
        elif cid == b'data':
            samples = min(size, len(data) - pos - 8)
        pos += 8 + size + (size & 1)
    return fmt, samples


def git_blob_sha(data):
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


def write_if_changed(path, data):
    try:
        with open(path, 'rb') as f:
            if f.read() == data:
                return False
    except FileNotFoundError:
        pass
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix='.tmp-')
    with os.fdopen(fd, 'wb') as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return True


def convert_wav(data, dest):
    """Only for clips that are not 16 kHz mono 16-bit PCM (none so far)."""
    if not shutil.which('sox'):
        sys.exit('so762: a clip needs converting and sox is missing (apt-get install sox)')
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, 'in.wav')
        with open(src, 'wb') as f:
            f.write(data)
        out = os.path.join(d, 'out.wav')
        subprocess.run(['sox', src, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', out],
                       check=True)
        with open(out, 'rb') as f:
            write_if_changed(dest, f.read())


def compare_with_dev(out_dir, dev_dir):
    """How far the rebuilt targets agree with so762-dev's (hand-copied from
    the released scores.json), for the utterances the two share."""
    dev = {}
    with open(os.path.join(dev_dir, 'scores.jsonl'), encoding='utf-8') as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                dev[r['id']] = r
    report = {}
    for split in SPLITS:
        c = {}

        def count(key, ok):
            c.setdefault(key, [0, 0])
            c[key][0] += bool(ok)
            c[key][1] += 1

        with open(os.path.join(out_dir, split, 'scores.jsonl'), encoding='utf-8') as f:
            for line in f:
                r = json.loads(line)
                d = dev.get(r['id'])
                if d is None:
                    continue
                count('utterances', True)
                count('text', r['text'] == d['text'])
                for k in SENTENCE_FIELDS:
                    count(f'sentence {k}: exact', r[k] == d[k])
                    count(f'sentence {k}: within 1', abs(r[k] - d[k]) <= 1)
                if len(r['words']) != len(d['words']):
                    count('word count', False)
                    continue
                for w, dw in zip(r['words'], d['words']):
                    count('word text and phones', (w['text'], w['phones']) == (dw['text'], dw['phones']))
                    for k in ('accuracy', 'total', 'stress'):
                        count(f'word {k}: exact', w[k] == dw[k])
                    count('word phones-accuracy: all phones exact', w['phones-accuracy'] == dw['phones-accuracy'])
                    for a, b in zip(w['phones-accuracy'], dw['phones-accuracy']):
                        count('phone accuracy: exact', abs(a - b) < 1e-6)
                        count('phone accuracy: within 0.2', abs(a - b) < 0.2 + 1e-6)
        report[split] = {k: f'{v[0]}/{v[1]}' for k, v in c.items()}
    return report


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    git_dir, out_dir = sys.argv[1], sys.argv[2]
    dev_dir = sys.argv[3] if len(sys.argv) == 4 else None
    git = Git(git_dir)
    commit = git.run('rev-parse', '--verify', '--quiet', SCORES_COMMIT + '^{commit}').strip()
    head = git.run('rev-parse', 'HEAD').strip()
    stats = {}
    tree = {}
    for line in git.run('ls-tree', '-r', '-l', 'HEAD', 'WAVE/').splitlines():
        meta, path = line.split('\t', 1)
        _, kind, sha, size = meta.split()
        m = re.fullmatch(r'WAVE/SPEAKER(\d{4})/(\d{9})\.WAV', path)
        if kind == 'blob' and m:
            tree[m.group(2)] = (sha, int(size) if size.isdigit() else -1, path)
    text_phone = read_text_phone(git.text('HEAD:resource/text-phone'))
    try:
        early = read_utt2score(git.text(EARLY_SCORES))
    except KeyError:
        early = {}
    summary = {'HEAD': head, 'scores commit': commit, 'WAV files under WAVE/': len(tree)}
    speakers = {}
    used = set()
    for split, score_path in SPLITS.items():
        texts = read_kaldi(git.text(f'HEAD:{split}/text'))
        utt2spk = read_kaldi(git.text(f'HEAD:{split}/utt2spk'))
        scores = read_utt2score(git.text(f'{commit}:{score_path}'))
        for u, raw in scores.items():
            e = early.get(u)
            if e and len(raw['accuracy']) == 4 and all(
                    len(e[f]) == 5 and all(abs(a - b) < 1e-6 for a, b in zip(e[f], raw[f]))
                    for f in SENTENCE_FIELDS):
                scores[u] = dict(raw, **{f: e[f] for f in SENTENCE_FIELDS})
                stats['fifth sentence rater from ' + EARLY_SCORES] = \
                    stats.get('fifth sentence rater from ' + EARLY_SCORES, 0) + 1
        if set(scores) != set(texts) or set(utt2spk) != set(texts):
            sys.exit(f'so762: {split}: text, utt2spk and {score_path} list different utterances')
        ids = sorted(texts)
        used.update(ids)
        for u in ids:
            if utt2spk[u] != u[1:5]:
                sys.exit(f'so762: {u}: speaker {utt2spk[u]} does not match the id')
        speakers[split] = {utt2spk[u] for u in ids}
        records = [build_record(u, scores[u], texts[u].split(), text_phone[u], stats) for u in ids]

        dest = os.path.join(out_dir, split)
        wav_dir = os.path.join(dest, 'wav')
        os.makedirs(wav_dir, exist_ok=True)
        write_if_changed(os.path.join(dest, 'scores.jsonl'),
                         ''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in records).encode())
        write_if_changed(os.path.join(dest, 'text'),
                         ''.join(f'{u} {texts[u]}\n' for u in ids).encode())
        written = kept = converted = 0
        seconds = 0.0
        formats = {}
        for u in ids:
            if u not in tree:
                sys.exit(f'so762: {u}: no WAVE/SPEAKER{u[1:5]}/{u}.WAV at HEAD')
            sha, size, path = tree[u]
            target = os.path.join(wav_dir, u + '.wav')
            data = None
            if os.path.isfile(target) and os.path.getsize(target) == size:
                with open(target, 'rb') as f:
                    data = f.read()
                if git_blob_sha(data) == sha:
                    kept += 1
                else:
                    data = None
            if data is None:
                kind, data = git.get(sha)
                if data.startswith(b'version https://git-lfs'):
                    sys.exit(f'so762: {path} is a Git LFS pointer in this copy')
                fmt, _ = wav_info(data)
                if fmt == (1, 1, 16000, 16):
                    write_if_changed(target, data)
                else:
                    convert_wav(data, target)
                    converted += 1
                written += 1
            fmt, samples = wav_info(data)
            formats[str(fmt)] = formats.get(str(fmt), 0) + 1
            if fmt and fmt[1] and fmt[2] and fmt[3]:
                seconds += samples / (fmt[1] * fmt[2] * fmt[3] / 8)
        wanted = {u + '.wav' for u in ids}
        stale = sorted(f for f in os.listdir(wav_dir) if f not in wanted)
        for f in stale:
            os.remove(os.path.join(wav_dir, f))
        summary[split] = {
            'utterances': len(ids), 'speakers': len(speakers[split]),
            'utterances per speaker': sorted({sum(1 for u in ids if utt2spk[u] == s)
                                              for s in speakers[split]}),
            'utterances with 4 raters at sentence level':
                sum(1 for r in records if len(r['raters']) and 'accuracy' not in r['raters'][-1]),
            'words': sum(len(r['words']) for r in records),
            'phones': sum(len(w['phones']) for r in records for w in r['words']),
            'hours': round(seconds / 3600, 2),
            'WAV written': written, 'WAV already there': kept, 'WAV converted': converted,
            'stale files removed': len(stale),
            'WAV formats (format, channels, rate, bits)': formats,
        }
    git.close()
    summary['speakers in both splits'] = sorted(speakers['train'] & speakers['test'])
    summary['WAV files in no split'] = len(set(tree) - used)
    summary['parsing'] = {str(k): v for k, v in stats.items()}
    if dev_dir:
        summary['agreement with so762-dev'] = compare_with_dev(out_dir, dev_dir)
    print(json.dumps(summary, indent=1))


if __name__ == '__main__':
    main()
