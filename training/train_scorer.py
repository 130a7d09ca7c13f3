"""A GOPT-style multi-task pronunciation scorer on Parla's features (issue 36).

Trains on speechocean762's TRAIN split only, chooses a few settings by
speaker-grouped 5-fold cross-validation inside it, fits the chosen setting on
all of train and reports Pearson r on the TEST split beside GOPT's row
(Gong et al., ICASSP 2022). Writes the weights as JSON (explicit shapes, for
the plain-Swift reimplementation) and a reference file of fixed inputs and
the model's outputs on them.

    .venv/bin/python train_scorer.py \
        --train-features /work/data/so762/features/train.jsonl --train-scores /work/data/so762/train/scores.jsonl \
        --test-features /work/data/so762/features/test.jsonl --test-scores /work/data/so762/test/scores.jsonl \
        --weights out/scorer.json --reference out/scorer-reference.json

See README.md for the model, the inputs and the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import features as fx

GOPT_ROW = {  # Gong et al. 2022, Table 1, speechocean762 test split (PCC).
    "utt.accuracy": 0.714, "utt.completeness": 0.155, "utt.fluency": 0.753, "utt.prosodic": 0.760,
    "utt.total": 0.742, "word.accuracy": 0.533, "word.stress": 0.291, "word.total": 0.549, "phone.accuracy": 0.612,
}
METRICS = list(GOPT_ROW)
# What CV chooses on: GOPT's four headline figures, equally weighted.
SELECTION = ["utt.accuracy", "utt.total", "word.accuracy", "phone.accuracy"]
UTT_SCALE = 5.0  # utterance and word scores (0-10) are learnt on 0-2, as the phones'.
N_UTT = len(fx.UTTERANCE_TARGETS)


def set_determinism(seed: int, threads: int) -> None:
    torch.set_num_threads(threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)
    np.random.seed(seed)


# ---------------------------------------------------------------- models


def sinusoid(length: int, dim: int) -> torch.Tensor:
    """Fixed positions (Vaswani et al.): pe[t, 2i] = sin(t / 10000^(2i/d)),
    pe[t, 2i+1] = cos(t / 10000^(2i/d)); t from 0 at the first phone."""
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    i = torch.arange(0, dim, 2, dtype=torch.float64)
    angle = pos / torch.pow(10000.0, i / dim)
    pe = torch.zeros(length, dim, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : dim // 2])
    return pe


class Block(nn.Module):
    """Pre-norm transformer block, one head (GOPT's, as timm's ViT Block)."""

    def __init__(self, dim: int, mlp_ratio: int):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, mlp_ratio * dim)
        self.fc2 = nn.Linear(mlp_ratio * dim, dim)

    def forward(self, x: torch.Tensor, key_mask: torch.Tensor) -> torch.Tensor:
        d = x.shape[-1]
        q, k, v = self.qkv(self.norm1(x)).split(d, dim=-1)
        att = q @ k.transpose(1, 2) / math.sqrt(d)
        att = att.masked_fill(~key_mask[:, None, :], float("-inf")).softmax(dim=-1)
        x = x + self.proj(att @ v)
        return x + self.fc2(F.gelu(self.fc1(self.norm2(x))))


class Transformer(nn.Module):
    """GOPT: per phone, Linear(inputs) + phone embedding + fixed positions;
    five utterance tokens in front; `depth` blocks; final LayerNorm; linear
    heads: phone accuracy and the word's three scores on every phone token,
    one utterance score on each utterance token."""

    kind = "transformer"

    def __init__(self, n_in: int, n_phones: int, dim: int, depth: int, mlp_ratio: int = 4):
        super().__init__()
        self.config = dict(dim=dim, depth=depth, mlpRatio=mlp_ratio)
        self.in_proj = nn.Linear(n_in, dim)
        self.phone_embed = nn.Embedding(n_phones, dim)
        self.utt_tokens = nn.Parameter(torch.zeros(N_UTT, dim))
        nn.init.trunc_normal_(self.utt_tokens, std=0.02)
        self.blocks = nn.ModuleList([Block(dim, mlp_ratio) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head_phone = nn.Linear(dim, 1)
        self.head_word = nn.Linear(dim, len(fx.WORD_TARGETS))
        self.head_utt_w = nn.Parameter(torch.zeros(N_UTT, dim))
        self.head_utt_b = nn.Parameter(torch.zeros(N_UTT))
        nn.init.trunc_normal_(self.head_utt_w, std=0.02)

    def forward(self, x, phone, mask):
        b, t, _ = x.shape
        d = self.config["dim"]
        h = self.in_proj(x) + self.phone_embed(phone) + sinusoid(t, d).to(x.dtype)[None]
        h = torch.cat([self.utt_tokens[None].expand(b, -1, -1).to(x.dtype), h], dim=1)
        key_mask = torch.cat([torch.ones(b, N_UTT, dtype=torch.bool), mask], dim=1)
        for blk in self.blocks:
            h = blk(h, key_mask)
        h = self.norm(h)
        phones = h[:, N_UTT:]
        utt = (h[:, :N_UTT] * self.head_utt_w[None]).sum(-1) + self.head_utt_b
        return self.head_phone(phones).squeeze(-1), self.head_word(phones), utt


class BiGRU(nn.Module):
    """Per phone Linear(inputs) + phone embedding, tanh; a bidirectional GRU
    (`depth` layers, `dim` a direction); linear heads on each phone's output
    (phone, word) and on the mean of the phones' outputs (utterance)."""

    kind = "bigru"

    def __init__(self, n_in: int, n_phones: int, dim: int, depth: int):
        super().__init__()
        self.config = dict(dim=dim, depth=depth)
        self.in_proj = nn.Linear(n_in, dim)
        self.phone_embed = nn.Embedding(n_phones, dim)
        self.gru = nn.GRU(dim, dim, num_layers=depth, batch_first=True, bidirectional=True)
        self.head_phone = nn.Linear(2 * dim, 1)
        self.head_word = nn.Linear(2 * dim, len(fx.WORD_TARGETS))
        self.head_utt = nn.Linear(2 * dim, N_UTT)

    def forward(self, x, phone, mask):
        h = torch.tanh(self.in_proj(x) + self.phone_embed(phone))
        lengths = mask.sum(1)
        packed = nn.utils.rnn.pack_padded_sequence(h, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, _ = self.gru(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
        m = mask[..., None].to(out.dtype)
        pooled = (out * m).sum(1) / m.sum(1)
        return self.head_phone(out).squeeze(-1), self.head_word(out), self.head_utt(pooled)


def make_model(setting: dict, n_in: int, n_phones: int) -> nn.Module:
    if setting["arch"] == "transformer":
        return Transformer(n_in, n_phones, setting["dim"], setting["depth"])
    return BiGRU(n_in, n_phones, setting["dim"], setting["depth"])


# ---------------------------------------------------------------- data


PN_INPUTS = ["logPosterior", "gapToBest", "otherShare", "lppOwn", "lppMargin", "phoneScore", "logDuration"]


class Preprocess:
    """Raw inputs to the model's: standardised with the training utterances'
    mean and deviation, the setting's columns kept; with `+pn` (phone-
    normalised) also a few evidence inputs standardised per phone (the
    token's phone's mean and deviation over the training tokens that have
    evidence; 0 on missing tokens), appended."""

    def __init__(self, utts: list[fx.Utterance], names: list[str], feature_set: str, n_phones: int):
        x = np.concatenate([u.x for u in utts]).astype(np.float64)
        phone = np.concatenate([u.phone for u in utts])
        self.mean, std = x.mean(0), x.std(0)
        self.std = np.where(std < 1e-6, 1.0, std)
        self.columns = feature_columns(names, feature_set)
        self.missing = names.index("missing")
        self.pn = feature_set.endswith("+pn")
        self.pn_columns = [names.index(n) for n in PN_INPUTS] if self.pn else []
        if self.pn:
            ok = x[:, self.missing] == 0
            sub = x[:, self.pn_columns]
            g_mean, g_std = sub[ok].mean(0), np.maximum(sub[ok].std(0), 1e-3)
            self.pn_mean = np.tile(g_mean, (n_phones, 1))
            self.pn_std = np.tile(g_std, (n_phones, 1))
            for p in range(n_phones):
                sel = ok & (phone == p)
                if sel.sum() >= 20:
                    self.pn_mean[p] = sub[sel].mean(0)
                    self.pn_std[p] = np.maximum(sub[sel].std(0), 1e-3)

    @property
    def width(self) -> int:
        return len(self.columns) + len(self.pn_columns)

    def __call__(self, x: np.ndarray, phone: np.ndarray) -> np.ndarray:
        x = x.astype(np.float64)
        z = ((x - self.mean) / self.std)[:, self.columns]
        if self.pn:
            e = (x[:, self.pn_columns] - self.pn_mean[phone]) / self.pn_std[phone]
            e[x[:, self.missing] == 1] = 0.0
            z = np.concatenate([z, e], axis=1)
        return z

    def to_json(self, names: list[str]) -> dict:
        out = {"inputMean": [float(v) for v in self.mean], "inputStd": [float(v) for v in self.std],
               "columns": [int(c) for c in self.columns]}
        if self.pn:
            out["phoneNorm"] = {"inputs": [names[c] for c in self.pn_columns],
                                "inputColumns": [int(c) for c in self.pn_columns],
                                "missingColumn": int(self.missing),
                                "mean": self.pn_mean.tolist(), "std": self.pn_std.tolist()}
        return out


def preprocess_json(w: dict, x: np.ndarray, phone: np.ndarray) -> np.ndarray:
    """Preprocess as the weights JSON describes it (what the Swift port does)."""
    z = ((x - np.array(w["inputMean"])) / np.array(w["inputStd"]))[:, w["columns"]]
    pn = w.get("phoneNorm")
    if pn:
        e = (x[:, pn["inputColumns"]] - np.array(pn["mean"])[phone]) / np.array(pn["std"])[phone]
        e[x[:, pn["missingColumn"]] == 1] = 0.0
        z = np.concatenate([z, e], axis=1)
    return z


class Split:
    """Utterances as padded-per-batch tensors, inputs preprocessed."""

    def __init__(self, utts: list[fx.Utterance], pre: Preprocess):
        self.utts = utts
        self.x = [torch.from_numpy(pre(u.x, u.phone).astype(np.float32)) for u in utts]
        self.phone = [torch.from_numpy(u.phone) for u in utts]
        self.phone_t = [torch.from_numpy(u.phone_target) for u in utts]
        self.word_t = [torch.from_numpy(u.word_targets[u.word] / UTT_SCALE) for u in utts]
        self.utt_t = torch.from_numpy(np.stack([u.utt_targets for u in utts]) / UTT_SCALE)

    def batch(self, idx):
        t = max(len(self.phone[i]) for i in idx)
        b = len(idx)
        n_in = self.x[idx[0]].shape[1]
        x = torch.zeros(b, t, n_in)
        phone = torch.zeros(b, t, dtype=torch.long)
        mask = torch.zeros(b, t, dtype=torch.bool)
        pt = torch.full((b, t), float("nan"))
        wt = torch.full((b, t, len(fx.WORD_TARGETS)), float("nan"))
        for r, i in enumerate(idx):
            n = len(self.phone[i])
            x[r, :n], phone[r, :n], mask[r, :n] = self.x[i], self.phone[i], True
            pt[r, :n], wt[r, :n] = self.phone_t[i], self.word_t[i]
        return x, phone, mask, pt, wt, self.utt_t[idx]


# Loudness: cross-validation put every level lower with it (training/README.md).
LOUDNESS = {"energy", "energyInWord"}


def feature_columns(names: list[str], feature_set: str) -> np.ndarray:
    """`gopt`: LPP and LPR only (GOPT's inputs); `full` (and `full+pn`): every
    column but loudness; `+energy` in the name: loudness too."""
    if feature_set.startswith("full"):
        return np.array([k for k, n in enumerate(names) if "+energy" in feature_set or n not in LOUDNESS])
    return np.array([k for k, n in enumerate(names) if n.startswith(("lpp.", "lpr."))])


def columns_key(names: list[str], setting: dict) -> str:
    """What a setting's CV figures were measured on: the columns it reads."""
    kept = feature_columns(names, setting["features"])
    return hashlib.sha256(",".join(names[k] for k in kept).encode()).hexdigest()[:16]


# ---------------------------------------------------------------- training


def masked_mse(pred, target):
    ok = ~torch.isnan(target)
    return ((pred[ok] - target[ok]) ** 2).mean()


def utterance_mse(pred, target):
    """The utterance loss: MSE over the known targets (a wrong-phrase
    attempt's fluency and prosody are unknown, NaN). A batch with every
    target known takes F.mse_loss, as before masks existed: the same bytes."""
    if torch.isnan(target).any():
        return masked_mse(pred, target)
    return F.mse_loss(pred, target)


class Ensemble(nn.Module):
    """`seeds` copies of one setting trained from different seeds; their
    outputs averaged (one member: the model itself)."""

    def __init__(self, members: list[nn.Module]):
        super().__init__()
        self.members = nn.ModuleList(members)
        self.kind, self.config = members[0].kind, members[0].config

    def forward(self, x, phone, mask):
        outs = [m(x, phone, mask) for m in self.members]
        return tuple(torch.stack(o).mean(0) for o in zip(*outs))


def train(setting: dict, split: Split, n_phones: int, seed: int, log=None) -> Ensemble:
    return Ensemble([train_one(setting, split, n_phones, seed + 1000 * k, log)
                     for k in range(setting.get("seeds", 1))])


def train_one(setting: dict, split: Split, n_phones: int, seed: int, log=None) -> nn.Module:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = make_model(setting, split.x[0].shape[1], n_phones)
    # GOPT's optimiser and schedule: Adam 1e-3, halved every 5 epochs from epoch 20.
    opt = torch.optim.Adam(model.parameters(), lr=setting.get("lr", 1e-3), betas=(0.95, 0.999), weight_decay=5e-7)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, list(range(20, 100, 5)), gamma=0.5)
    n = len(split.utts)
    bs = setting.get("batch", 25)
    for epoch in range(setting["epochs"]):
        model.train()
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, bs):
            x, phone, mask, pt, wt, ut = split.batch(order[s:s + bs])
            p, w, u = model(x, phone, mask)
            loss = (setting.get("wphone", 1.0) * masked_mse(p, pt) + setting.get("wword", 1.0) * masked_mse(w, wt)
                    + setting.get("wutt", 1.0) * utterance_mse(u, ut))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(order[s:s + bs])
        sched.step()
        if log and (epoch % 10 == 9 or epoch == setting["epochs"] - 1):
            log(f"    epoch {epoch + 1}: loss {total / n:.4f}")
    return model


@torch.no_grad()
def predict(model: nn.Module, split: Split, idx=None, bs: int = 100):
    """Per utterance: phone (0-2, every token), word scores (0-10, per
    word: the mean over its tokens), utterance scores (0-10)."""
    model.eval()
    idx = list(range(len(split.utts))) if idx is None else list(idx)
    out = {}
    for s in range(0, len(idx), bs):
        chunk = idx[s:s + bs]
        x, phone, mask, _, _, _ = split.batch(chunk)
        p, w, u = model(x, phone, mask)
        for r, i in enumerate(chunk):
            utt = split.utts[i]
            n = len(utt.phone)
            wp = w[r, :n].numpy() * UTT_SCALE
            words = np.stack([wp[utt.word == k].mean(0) for k in range(len(utt.word_targets))])
            out[i] = (p[r, :n].numpy(), words, u[r].numpy() * UTT_SCALE)
    return out


def pearson(a, b) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if len(a) < 2 or a.std() == 0 or b.std() == 0:
        return float("nan")
    return float(np.corrcoef(a, b)[0, 1])


def metrics(utts: list[fx.Utterance], preds: dict) -> dict:
    """Pearson r as GOPT measures it: utterances; words (each word of the
    raters', its prediction the mean over its phones); every canonical
    phone against the raters' mean."""
    up, ut, wp, wt, pp, pt = [], [], [], [], [], []
    for i, u in enumerate(utts):
        if i not in preds:
            continue
        p, w, s = preds[i]
        up.append(s), ut.append(u.utt_targets)
        wp.append(w), wt.append(u.word_targets)
        ok = ~np.isnan(u.phone_target)
        pp.append(p[ok]), pt.append(u.phone_target[ok])
    up, ut, wp, wt = np.stack(up), np.stack(ut), np.concatenate(wp), np.concatenate(wt)
    pp, pt = np.concatenate(pp), np.concatenate(pt)
    m = {f"utt.{k}": pearson(up[:, j], ut[:, j]) for j, k in enumerate(fx.UTTERANCE_TARGETS)}
    m.update({f"word.{k}": pearson(wp[:, j], wt[:, j]) for j, k in enumerate(fx.WORD_TARGETS)})
    m["phone.accuracy"] = pearson(pp, pt)
    m["phone.mse"] = float(np.mean((pp - pt) ** 2))
    return m


def auc(positives, negatives) -> float:
    """P(a positive scores above a negative), ties counting half (the Mann-
    Whitney U over the product of the counts)."""
    pos, neg = np.asarray(positives, np.float64), np.asarray(negatives, np.float64)
    if len(pos) == 0 or len(neg) == 0:
        return float("nan")
    both = np.concatenate([pos, neg])
    _, inverse, counts = np.unique(both, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2.0)[inverse]  # mid-ranks, 1-based
    return float((ranks[:len(pos)].sum() - len(pos) * (len(pos) + 1) / 2.0) / (len(pos) * len(neg)))


def prediction_means(utts: list[fx.Utterance], preds: dict) -> dict:
    """Mean predicted utterance scores (0-10) and mean predicted word
    accuracy (0-10, over every word of the utterances)."""
    up = np.stack([preds[i][2] for i in range(len(utts))])
    words = np.concatenate([preds[i][1] for i in range(len(utts))])
    m = {f"utt.{k}": float(up[:, j].mean()) for j, k in enumerate(fx.UTTERANCE_TARGETS)}
    m.update({f"word.{k}": float(words[:, j].mean()) for j, k in enumerate(fx.WORD_TARGETS)})
    return m


def mismatched_report(right: list[fx.Utterance], right_preds: dict, wrong: list[fx.Utterance],
                      wrong_preds: dict) -> dict:
    """How the model tells right attempts from wrong-phrase ones: mean
    predictions of each, and the AUC of the predicted utterance total (and
    accuracy) with the right attempts the positives."""
    r, w = prediction_means(right, right_preds), prediction_means(wrong, wrong_preds)
    out = {"right": r, "mismatched": w, "right.count": len(right), "mismatched.count": len(wrong)}
    for j, k in enumerate(fx.UTTERANCE_TARGETS):
        if k in ("total", "accuracy"):
            out[f"auc.utt.{k}"] = auc([right_preds[i][2][j] for i in range(len(right))],
                                      [wrong_preds[i][2][j] for i in range(len(wrong))])
    return out


def speaker_folds(speakers: list[str], count: int) -> np.ndarray:
    """Agreement.folds: speakers sorted, dealt round the folds."""
    order = {s: k for k, s in enumerate(sorted(set(speakers)))}
    return np.array([order[s] % count for s in speakers])


def cross_validate(setting, utts, names, n_phones, folds, seed, log, extra=()):
    """Pooled out-of-fold predictions of `utts`. `extra` (wrong-phrase
    attempts) only trains: each joins the training folds of its recording's
    speaker's fold (every fold when the speaker has no utterance in `utts`)."""
    fold = speaker_folds([u.speaker for u in utts], folds)
    fold_of = dict(zip([u.speaker for u in utts], fold))
    preds = {}
    for f in range(folds):
        tr = [u for u, k in zip(utts, fold) if k != f]
        pre = Preprocess(tr, names, setting["features"], n_phones)
        tr_extra = [u for u in extra if fold_of.get(u.speaker, -1) != f]
        model = train(setting, Split(tr + tr_extra, pre), n_phones, seed)
        held = [i for i, k in enumerate(fold) if k == f]
        p = predict(model, Split([utts[i] for i in held], pre))
        preds.update({held[j]: v for j, v in p.items()})
    return metrics(utts, preds)


# ---------------------------------------------------------------- export


def export(model: nn.Module, setting: dict, names: list[str], phones: list[str], pre: Preprocess) -> dict:
    members = []
    for member in model.members:
        tensors = {}
        for key, value in member.state_dict().items():
            v = value.detach().to(torch.float64).numpy()
            tensors[key] = {"shape": list(v.shape), "data": [float(z) for z in v.reshape(-1)]}
        members.append({"tensors": tensors})
    if model.kind == "transformer":
        computation = [
            "x: the token's raw inputs (`inputs`, in order), z = (x - inputMean) / inputStd, keep the `columns` entries; "
            "with `phoneNorm`, append (x[inputColumns] - mean[phone_t]) / std[phone_t] (zeros when x[missingColumn] is 1)",
            "h_t = in_proj.weight @ z + in_proj.bias + phone_embed.weight[phone_t] + pe[t] (t from 0 at the first phone;"
            " pe[t][2i] = sin(t / 10000^(2i/dim)), pe[t][2i+1] = cos(t / 10000^(2i/dim)))",
            "sequence = utt_tokens (5 rows) followed by the phones' h; for each block b in blocks.0...: "
            "a = LayerNorm(x; norm1, eps 1e-5); [q|k|v] = qkv.weight @ a + qkv.bias (dim each); "
            "x += proj(softmax(q k^T / sqrt(dim)) v) (over every token, one head); "
            "x += fc2(gelu(fc1(LayerNorm(x; norm2)))) with the exact gelu: 0.5 x (1 + erf(x / sqrt 2))",
            "y = LayerNorm(x; norm, eps 1e-5); phone_t = head_phone(y_phone_t) (0-2); "
            "word_t = head_word(y_phone_t) * 5 (accuracy, stress, total, 0-10), a word's scores the mean over its tokens; "
            "utterance_k = (head_utt_w[k] . y_k + head_utt_b[k]) * 5 for k = accuracy, completeness, fluency, prosodic, total",
        ]
    else:
        computation = [
            "x: the token's raw inputs (`inputs`, in order), z = (x - inputMean) / inputStd, keep the `columns` entries; "
            "with `phoneNorm`, append (x[inputColumns] - mean[phone_t]) / std[phone_t] (zeros when x[missingColumn] is 1)",
            "h_t = tanh(in_proj.weight @ z + in_proj.bias + phone_embed.weight[phone_t])",
            "bidirectional GRU, PyTorch's equations and layout (weight_ih_l{k}[_reverse] rows r, z, n): "
            "r = sigmoid(W_ir x + b_ir + W_hr h + b_hr); u = sigmoid(W_iz x + b_iz + W_hz h + b_hz); "
            "n = tanh(W_in x + b_in + r * (W_hn h + b_hn)); h' = (1 - u) n + u h; h starts at 0; "
            "the reverse direction runs from the last phone; a layer's output is [forward | reverse]",
            "phone_t = head_phone(o_t) (0-2); word_t = head_word(o_t) * 5, a word's scores the mean over its tokens; "
            "utterance = head_utt(mean_t o_t) * 5 (accuracy, completeness, fluency, prosodic, total)",
        ]
    return {
        "format": "parla-gopt-scorer-1",
        "architecture": model.kind,
        "config": model.config,
        "setting": setting,
        "phones": phones,
        "inputs": names,
        **pre.to_json(names),
        "utteranceScale": UTT_SCALE,
        "outputs": {"phone": "accuracy 0-2", "word": fx.WORD_TARGETS, "utterance": fx.UTTERANCE_TARGETS},
        "computation": computation + ["every member of `members` runs on the same z; the outputs (phone, word "
                                      "per token, utterance) are the mean of the members'"],
        "members": members,
        "parameters": int(sum(p.numel() for p in model.members[0].parameters())),  # a member's
    }


def reference_inputs(names, phones, mean, std, seed: int = 7):
    # mean, std: the raw inputs' (Preprocess.mean, .std).
    """Fixed synthetic utterances (no corpus data): inputs drawn around the
    train mean, some tokens missing, lengths 1, 6, 23 and 70 phones."""
    rng = np.random.default_rng(seed)
    miss = names.index("missing")
    cases = []
    for length, words in [(1, 1), (6, 2), (23, 7), (70, 20)]:
        x = rng.normal(mean, std, size=(length, len(names))).astype(np.float64)
        x = np.round(x, 4)
        x[:, miss] = 0.0
        if length > 3:
            x[2, :] = 0.0
            x[2, miss] = 1.0
        phone = rng.integers(0, len(phones), size=length)
        word = np.sort(rng.integers(0, words, size=length))
        word = np.unique(word, return_inverse=True)[1]  # every word has a token
        cases.append({"x": x, "phone": phone, "word": word})
    return cases


@torch.no_grad()
def run_reference(model, cases, pre: Preprocess):
    m64 = model.to(torch.float64).eval()
    out = []
    for c in cases:
        z = torch.from_numpy(pre(c["x"], c["phone"]))[None]
        phone = torch.from_numpy(c["phone"])[None]
        mask = torch.ones(1, len(c["phone"]), dtype=torch.bool)
        p, w, u = m64(z, phone, mask)
        w = w[0].numpy() * UTT_SCALE
        words = np.stack([w[c["word"] == k].mean(0) for k in range(c["word"].max() + 1)])
        out.append({"inputs": c["x"].tolist(), "phone": c["phone"].tolist(), "word": c["word"].tolist(),
                    "phoneScores": p[0].numpy().tolist(), "wordScoresPerPhone": w.tolist(),
                    "wordScores": words.tolist(), "utteranceScores": (u[0].numpy() * UTT_SCALE).tolist()})
    model.to(torch.float32)
    return out


def numpy_forward(weights: dict, x: np.ndarray, phone: np.ndarray):
    """The exported JSON run with numpy alone (float64): what the Swift port
    must compute. Returns phone scores, per-phone word scores, utterance."""
    z = preprocess_json(weights, x, phone)
    outs = [numpy_member(weights, m["tensors"], z, phone) for m in weights["members"]]
    return tuple(np.mean(o, axis=0) for o in zip(*outs))


def numpy_member(weights: dict, tensors: dict, z: np.ndarray, phone: np.ndarray):
    t = {k: np.array(v["data"], dtype=np.float64).reshape(v["shape"]) for k, v in tensors.items()}
    scale = weights["utteranceScale"]

    def lin(name, v):
        return v @ t[name + ".weight"].T + t[name + ".bias"]

    def ln(name, v):
        mu = v.mean(-1, keepdims=True)
        var = ((v - mu) ** 2).mean(-1, keepdims=True)
        return (v - mu) / np.sqrt(var + 1e-5) * t[name + ".weight"] + t[name + ".bias"]

    if weights["architecture"] == "transformer":
        d = weights["config"]["dim"]
        n = len(phone)
        pe = sinusoid(n, d).numpy()
        h = lin("in_proj", z) + t["phone_embed.weight"][phone] + pe
        h = np.concatenate([t["utt_tokens"], h])
        for b in range(weights["config"]["depth"]):
            p = f"blocks.{b}."
            qkv = lin(p + "qkv", ln(p + "norm1", h))
            q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
            a = q @ k.T / math.sqrt(d)
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            h = h + lin(p + "proj", a @ v)
            f = lin(p + "fc1", ln(p + "norm2", h))
            f = 0.5 * f * (1 + np.vectorize(math.erf)(f / math.sqrt(2)))
            h = h + lin(p + "fc2", f)
        y = ln("norm", h)
        ph = y[N_UTT:]
        utt = ((y[:N_UTT] * t["head_utt_w"]).sum(-1) + t["head_utt_b"]) * scale
        return lin("head_phone", ph)[:, 0], lin("head_word", ph) * scale, utt
    # bidirectional GRU
    h = np.tanh(lin("in_proj", z) + t["phone_embed.weight"][phone])

    def sig(v):
        return 1 / (1 + np.exp(-v))

    for layer in range(weights["config"]["depth"]):
        outs = []
        for suffix in ["", "_reverse"]:
            wi, wh = t[f"gru.weight_ih_l{layer}{suffix}"], t[f"gru.weight_hh_l{layer}{suffix}"]
            bi, bh = t[f"gru.bias_ih_l{layer}{suffix}"], t[f"gru.bias_hh_l{layer}{suffix}"]
            hd = wh.shape[1]
            state = np.zeros(hd)
            o = np.zeros((len(h), hd))
            steps = range(len(h)) if suffix == "" else range(len(h) - 1, -1, -1)
            for s in steps:
                gi, gh = wi @ h[s] + bi, wh @ state + bh
                r = sig(gi[:hd] + gh[:hd])
                u = sig(gi[hd:2 * hd] + gh[hd:2 * hd])
                nn_ = np.tanh(gi[2 * hd:] + r * gh[2 * hd:])
                state = (1 - u) * nn_ + u * state
                o[s] = state
            outs.append(o)
        h = np.concatenate(outs, axis=1)
    return lin("head_phone", h)[:, 0], lin("head_word", h) * scale, lin("head_utt", h.mean(0)) * scale


# ---------------------------------------------------------------- main


def fmt_row(name: str, m: dict) -> str:
    return f"{name:<28}" + "".join(f"{m.get(k, float('nan')):>8.3f}" for k in METRICS)


def table(rows: list[tuple[str, dict]]) -> str:
    short = {"utt": "U", "word": "W", "phone": "P"}
    head = f"{'':<28}" + "".join(f"{short[k.split('.')[0]] + '-' + k.split('.')[1][:4]:>8}" for k in METRICS)
    return "\n".join([head] + [fmt_row(n, m) for n, m in rows])


def label_of(setting: dict) -> str:
    seeds = f" x{setting['seeds']}" if setting.get("seeds", 1) > 1 else ""
    return f"{setting['arch']} d{setting['dim']} L{setting['depth']} {setting['features']}{seeds}"


def settings_grid(quick: bool, ablation: bool) -> list[dict]:
    """The settings CV chooses from: a transformer of GOPT's size and a
    one-layer bidirectional GRU, on every input with and without the phone-
    normalised ones; a two-layer GRU; the one-layer GRU as an ensemble of
    three and of five seeds. `ablation` adds GOPT's inputs alone (LPP and LPR)."""
    base = dict(epochs=50, batch=25, lr=1e-3)
    grid = [
        dict(arch="transformer", dim=24, depth=3, features="full"),
        dict(arch="transformer", dim=24, depth=3, features="full+pn"),
        dict(arch="bigru", dim=24, depth=1, features="full"),
        dict(arch="bigru", dim=24, depth=1, features="full+pn"),
        dict(arch="bigru", dim=32, depth=2, features="full+pn"),
        dict(arch="bigru", dim=24, depth=1, features="full", seeds=3),
        dict(arch="bigru", dim=24, depth=1, features="full", seeds=5),
    ]
    if ablation:
        grid += [dict(arch="transformer", dim=24, depth=3, features="gopt"),
                 dict(arch="bigru", dim=24, depth=1, features="gopt")]
    grid = [{**base, **g} for g in grid]
    if quick:
        grid = [{**g, "epochs": 3} for g in grid]
    return grid


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="GOPT-style scorer on Parla's features (issue 36)")
    ap.add_argument("--train-features", required=True)
    ap.add_argument("--train-scores", required=True)
    ap.add_argument("--test-features")
    ap.add_argument("--test-scores")
    ap.add_argument("--weights", help="where to write the weights JSON (the project keeps it at Models/en/scorer.json)")
    ap.add_argument("--reference", help="where to write the reference inputs and outputs for the Swift test")
    ap.add_argument("--cv-out", help="where to write the CV figures (JSON)")
    ap.add_argument("--cv-in", help="CV figures written before (--cv-out): settings found there are not run again")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--mdef", help="the acoustic model's mdef (default: Debian's pocketsphinx-en-us)")
    ap.add_argument("--setting", help="skip CV: this setting as JSON, e.g. '{\"arch\":\"transformer\",...}'")
    ap.add_argument("--both", action="store_true", help="also fit the best setting of the other architecture and report it on test")
    ap.add_argument("--grid", help="cross-validate these settings instead (a JSON list)")
    ap.add_argument("--cv-only", action="store_true", help="stop after cross-validation")
    ap.add_argument("--quick", action="store_true", help="a few epochs, for checking the code")
    ap.add_argument("--ablation", action="store_true", help="also cross-validate GOPT's inputs alone (LPP, LPR)")
    ap.add_argument("--train-mismatched", metavar="FILE",
                    help="the TRAIN split's wrong-phrase attempts (train-mismatched.jsonl of `parla speech evaluate "
                         "--mismatched`; targets from --train-scores): extra training examples scored 0")
    ap.add_argument("--test-mismatched", metavar="FILE",
                    help="the TEST split's wrong-phrase attempts (targets from --test-scores): after training, report "
                         "the chosen model's predictions on them and the AUC against the right test utterances; "
                         "never used for training or any choice")
    args = ap.parse_args(argv)
    set_determinism(args.seed, args.threads)
    t0 = time.time()

    def log(s):
        print(f"[{time.time() - t0:6.0f}s] {s}", flush=True)

    phones = fx.model_phones(args.mdef)
    names = fx.feature_names(phones)
    train_utts = fx.load_split(args.train_features, args.train_scores, phones)
    log(f"train: {json.dumps(fx.summary(train_utts))}")
    test_utts = []
    if args.test_features and args.test_scores:
        test_utts = fx.load_split(args.test_features, args.test_scores, phones)
        log(f"test: {json.dumps(fx.summary(test_utts))}")
    # Wrong-phrase attempts: the train split's only ever train (load_mismatched
    # refuses a line whose recording or text is not in the train scores file).
    train_extra, test_wrong = [], []
    if args.train_mismatched:
        train_extra = fx.load_mismatched(args.train_mismatched, args.train_scores, phones)
        log(f"train mismatched: {json.dumps(fx.summary(train_extra))}")
    if args.test_mismatched:
        if not (test_utts and args.test_scores):
            ap.error("--test-mismatched needs --test-features and --test-scores")
        test_wrong = fx.load_mismatched(args.test_mismatched, args.test_scores, phones)
        log(f"test mismatched: {json.dumps(fx.summary(test_wrong))}")

    cv = []
    if args.setting:
        chosen = {**dict(epochs=50, batch=25, lr=1e-3), **json.loads(args.setting)}
        others = []
    else:
        known = []
        if args.cv_in and os.path.exists(args.cv_in):
            known = json.load(open(args.cv_in))
        grid = settings_grid(args.quick, args.ablation)
        if args.grid:
            grid = [{**dict(epochs=50, batch=25, lr=1e-3), **g} for g in json.loads(args.grid)]
        for setting in grid:
            done = [c for c in known if c["setting"] == setting and c.get("folds") == args.folds
                    and c.get("seed") == args.seed and c.get("train") == len(train_utts)
                    and c.get("mismatched", 0) == len(train_extra) and c.get("inputs") == columns_key(names, setting)]
            if done:
                cv.append(done[0])
                log(f"CV {json.dumps(setting)}: from {args.cv_in}")
                continue
            m = cross_validate(setting, train_utts, names, len(phones), args.folds, args.seed, log, train_extra)
            sel = float(np.mean([m[k] for k in SELECTION]))
            cv.append({"setting": setting, "cv": m, "selection": sel, "folds": args.folds, "seed": args.seed,
                       "train": len(train_utts), "inputs": columns_key(names, setting),
                       **({"mismatched": len(train_extra)} if train_extra else {})})
            log(f"CV {json.dumps(setting)}: selection {sel:.4f}\n{table([('  cv', m)])}")
            if args.cv_out:
                with open(args.cv_out, "w") as f:
                    json.dump(cv, f, indent=1)
        best = max(cv, key=lambda c: c["selection"])
        chosen = best["setting"]
        others = []
        if args.both:
            rest = [c for c in cv if c["setting"]["arch"] != chosen["arch"]]
            if rest:
                others = [max(rest, key=lambda c: c["selection"])["setting"]]
        print("\nCross-validation on train (speaker-grouped, %d folds; pooled out-of-fold r):" % args.folds)
        print(table([(label_of(c["setting"]) + (" *" if c["setting"] == chosen else ""), c["cv"]) for c in cv]))
        if args.cv_out:
            with open(args.cv_out, "w") as f:
                json.dump(cv, f, indent=1)

    if args.cv_only:
        return 0
    rows = [("GOPT (Gong et al. 2022)", GOPT_ROW)]
    wrong_rows = []
    final = None
    for k, setting in enumerate([chosen] + others):
        # Inputs standardised with the right train utterances' statistics alone:
        # the wrong-phrase attempts only add training examples.
        pre = Preprocess(train_utts, names, setting["features"], len(phones))
        log(f"final fit on all of train{f' + {len(train_extra)} mismatched' if train_extra else ''}: "
            f"{json.dumps(setting)}")
        model = train(setting, Split(train_utts + train_extra, pre), len(phones), args.seed, log)
        label = label_of(setting) + (" *" if k == 0 else "")
        if test_utts:
            right_preds = predict(model, Split(test_utts, pre))
            m = metrics(test_utts, right_preds)
            rows.append((label, m))
            if test_wrong:
                wrong_rows.append((label, mismatched_report(test_utts, right_preds, test_wrong,
                                                            predict(model, Split(test_wrong, pre)))))
        if k == 0:
            final = (model, setting, pre)
    if test_utts:
        print("\nTEST split (speechocean762 test, Pearson r; * = chosen by CV on train):")
        print(table(rows))
        print(f"phone MSE (0-2 scale): " + ", ".join(f"{n}: {m['phone.mse']:.3f}" for n, m in rows[1:]))
    for label, r in wrong_rows:
        print(f"\nTEST wrong-phrase attempts ({r['mismatched.count']} mismatched, {r['right.count']} right), {label}:")
        print(f"{'mean prediction (0-10)':<28}{'U-accu':>8}{'U-tota':>8}{'W-accu':>8}")
        for which in ["right", "mismatched"]:
            v = r[which]
            print(f"{'  ' + which:<28}{v['utt.accuracy']:>8.3f}{v['utt.total']:>8.3f}{v['word.accuracy']:>8.3f}")
        print(f"AUC right vs mismatched: utterance total {r['auc.utt.total']:.4f}, "
              f"utterance accuracy {r['auc.utt.accuracy']:.4f}")

    model, setting, pre = final
    weights = export(model, setting, names, phones, pre)
    if train_extra:  # said only when used: without it the file is as before
        weights["training"] = {"mismatched": len(train_extra)}
    log(f"chosen model: {weights['architecture']}, {weights['parameters']} parameters")
    if args.weights:
        os.makedirs(os.path.dirname(os.path.abspath(args.weights)), exist_ok=True)
        with open(args.weights, "w") as f:
            json.dump(weights, f)
        log(f"weights written to {args.weights}")
    cases = reference_inputs(names, phones, pre.mean, pre.std)
    ref = run_reference(model, cases, pre)
    # The JSON alone (numpy, float64) must give the same outputs, and float32 torch within 1e-4.
    worst64 = worst32 = 0.0
    for c, r in zip(cases, ref):
        p, w, u = numpy_forward(weights, c["x"], c["phone"])
        worst64 = max(worst64, np.abs(p - r["phoneScores"]).max(), np.abs(w - r["wordScoresPerPhone"]).max(),
                      np.abs(u - r["utteranceScores"]).max())
        with torch.no_grad():
            z = torch.from_numpy(pre(c["x"], c["phone"]).astype(np.float32))[None]
            p32, w32, u32 = model.eval()(z, torch.from_numpy(c["phone"])[None], torch.ones(1, len(c["phone"]), dtype=torch.bool))
        worst32 = max(worst32, float(np.abs(p32[0].numpy() - r["phoneScores"]).max()),
                      float(np.abs(w32[0].numpy() * UTT_SCALE - r["wordScoresPerPhone"]).max()),
                      float(np.abs(u32[0].numpy() * UTT_SCALE - r["utteranceScores"]).max()))
    log(f"reference: numpy-from-JSON vs torch float64 max diff {worst64:.2e}; torch float32 vs float64 {worst32:.2e}")
    assert worst64 < 1e-9, worst64
    if args.reference:
        with open(args.reference, "w") as f:
            json.dump({"format": "parla-gopt-scorer-reference-1",
                       "note": "synthetic inputs (no corpus data); outputs of the weights file's model in float64. "
                               "A port must match them to 1e-4.",
                       "tolerance": 1e-4, "cases": ref}, f)
        log(f"reference written to {args.reference}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
