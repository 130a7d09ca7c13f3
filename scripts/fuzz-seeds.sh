#!/usr/bin/env bash
# Writes the fuzzers' seed corpus, Tests/Fuzz/seeds/{audio,picture}: one short
# spoken word in every container and encoding libsndfile reads, and small
# PNG and JPEG pictures of every kind ImageInspector must walk. The seeds are
# committed, so this runs only when they should change; it needs espeak-ng
# and libsndfile (scripts/install-deps.sh) and, for the JPEGs, Debian's
# libjpeg-turbo-progs (cjpeg, jpegtran, wrjpgcom).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
audio="$root/Tests/Fuzz/seeds/audio"
picture="$root/Tests/Fuzz/seeds/picture"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for tool in espeak-ng cjpeg jpegtran wrjpgcom python3; do
  command -v "$tool" >/dev/null || { echo "fuzz-seeds: $tool is missing (see the comment at the top)" >&2; exit 1; }
done
rm -rf "$audio" "$picture"
mkdir -p "$audio" "$picture"

# The same voice and word every time, so the seeds change only with espeak-ng.
espeak-ng -v en -s 200 -w "$work/word.wav" "seven"

# Audio: libsndfile itself writes every format it reads (ctypes, no other
# tool), from the word resampled to each rate. Short clips keep every seed
# small; the 0.6 s ones hold the whole word and decode, so the fuzzer also
# starts from inputs that pass every check.
python3 - "$work/word.wav" "$audio" <<'PY'
import ctypes, ctypes.util, pathlib, sys

sndfile = ctypes.CDLL(ctypes.util.find_library("sndfile"))

class Info(ctypes.Structure):
    _fields_ = [("frames", ctypes.c_int64), ("samplerate", ctypes.c_int), ("channels", ctypes.c_int),
                ("format", ctypes.c_int), ("sections", ctypes.c_int), ("seekable", ctypes.c_int)]

sndfile.sf_open.restype = ctypes.c_void_p
sndfile.sf_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(Info)]
sndfile.sf_readf_float.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.c_int64]
sndfile.sf_writef_float.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.c_int64]
sndfile.sf_writef_float.restype = ctypes.c_int64
sndfile.sf_close.argtypes = [ctypes.c_void_p]
sndfile.sf_strerror.restype = ctypes.c_char_p
sndfile.sf_strerror.argtypes = [ctypes.c_void_p]
READ, WRITE = 0x10, 0x20

source, target = sys.argv[1], pathlib.Path(sys.argv[2])
info = Info()
handle = sndfile.sf_open(source.encode(), READ, ctypes.byref(info))
buffer = (ctypes.c_float * info.frames)()
sndfile.sf_readf_float(handle, buffer, info.frames)
sndfile.sf_close(handle)
# The word without the silence espeak-ng puts around it.
word = list(buffer)
loud = [i for i, v in enumerate(word) if abs(v) > 0.02]
word = word[loud[0]:loud[-1] + 1]

def clip(rate, seconds):
    """The word resampled to `rate` (linear), cut or padded to `seconds`;
    a clip long enough to hold it starts with 0.1 s of silence, as a
    recording does, which the speech detector needs to find the word."""
    step = info.samplerate / rate
    lead = int(rate * 0.1) if seconds >= 0.5 else 0
    out = [0.0] * lead
    for n in range(int(rate * seconds) - lead):
        x = n * step
        i = int(x)
        out.append(word[i] + (word[i + 1] - word[i]) * (x - i) if i + 1 < len(word) else 0.0)
    return out

formats = dict(WAV=0x010000, AIFF=0x020000, AU=0x030000, PAF=0x050000, SVX=0x060000, NIST=0x070000, VOC=0x080000,
               IRCAM=0x0A0000, W64=0x0B0000, MAT4=0x0C0000, MAT5=0x0D0000, PVF=0x0E0000, XI=0x0F0000, HTK=0x100000,
               SDS=0x110000, AVR=0x120000, WAVEX=0x130000, FLAC=0x170000, CAF=0x180000, WVE=0x190000, OGG=0x200000,
               MPC2K=0x210000, RF64=0x220000, MPEG=0x230000)
encodings = dict(PCM_S8=0x01, PCM_16=0x02, PCM_24=0x03, PCM_32=0x04, PCM_U8=0x05, FLOAT=0x06, DOUBLE=0x07, ULAW=0x10,
                 ALAW=0x11, IMA_ADPCM=0x12, MS_ADPCM=0x13, GSM610=0x20, G721_32=0x30, DWVW_16=0x42, DPCM_8=0x50,
                 VORBIS=0x60, OPUS=0x64, ALAC_16=0x70, MPEG_LAYER_III=0x82)
# name, container, encoding, rate, channels, seconds
seeds = [
    ("pcm16-16k.wav", "WAV", "PCM_16", 16000, 1, 0.6),
    ("u8-8k.wav", "WAV", "PCM_U8", 8000, 1, 0.6),
    ("float-8k.wav", "WAV", "FLOAT", 8000, 1, 0.2),
    ("pcm16-8k-stereo.wav", "WAV", "PCM_16", 8000, 2, 0.2),
    ("pcm16-44k-stereo.wav", "WAV", "PCM_16", 44100, 2, 0.03),
    ("pcm24-22k.wav", "WAV", "PCM_24", 22050, 1, 0.1),
    ("ima-adpcm-16k.wav", "WAV", "IMA_ADPCM", 16000, 1, 0.6),
    ("ms-adpcm-16k.wav", "WAV", "MS_ADPCM", 16000, 1, 0.6),
    ("gsm-8k.wav", "WAV", "GSM610", 8000, 1, 0.6),
    ("ulaw-8k.wav", "WAV", "ULAW", 8000, 1, 0.6),
    ("alaw-8k.wav", "WAV", "ALAW", 8000, 1, 0.2),
    ("g721-8k.wav", "WAV", "G721_32", 8000, 1, 0.2),
    ("wavex-pcm16-8k-stereo.wav", "WAVEX", "PCM_16", 8000, 2, 0.1),
    ("rf64-pcm16-8k.wav", "RF64", "PCM_16", 8000, 1, 0.1),
    ("w64-pcm16-8k.w64", "W64", "PCM_16", 8000, 1, 0.1),
    ("pcm16-16k.flac", "FLAC", "PCM_16", 16000, 1, 0.6),
    ("pcm24-44k-stereo.flac", "FLAC", "PCM_24", 44100, 2, 0.2),
    ("vorbis-16k.ogg", "OGG", "VORBIS", 16000, 1, 0.6),
    ("vorbis-44k-stereo.ogg", "OGG", "VORBIS", 44100, 2, 0.2),
    ("opus-16k.opus", "OGG", "OPUS", 16000, 1, 0.6),
    ("opus-48k-stereo.opus", "OGG", "OPUS", 48000, 2, 0.2),
    ("mp3-16k.mp3", "MPEG", "MPEG_LAYER_III", 16000, 1, 0.6),
    ("mp3-44k-stereo.mp3", "MPEG", "MPEG_LAYER_III", 44100, 2, 0.2),
    ("pcm16-8k.aiff", "AIFF", "PCM_16", 8000, 1, 0.1),
    ("float-8k.aifc", "AIFF", "FLOAT", 8000, 1, 0.1),
    ("dwvw16-8k.aiff", "AIFF", "DWVW_16", 8000, 1, 0.1),
    ("ulaw-8k.au", "AU", "ULAW", 8000, 1, 0.1),
    ("g721-8k.au", "AU", "G721_32", 8000, 1, 0.1),
    ("pcm16-8k.caf", "CAF", "PCM_16", 8000, 1, 0.1),
    ("alac-16k.caf", "CAF", "ALAC_16", 16000, 1, 0.6),
    ("pcm16-8k.paf", "PAF", "PCM_16", 8000, 1, 0.1),
    ("pcm16-8k.svx", "SVX", "PCM_16", 8000, 1, 0.1),
    ("pcm16-8k.nist", "NIST", "PCM_16", 8000, 1, 0.1),
    ("pcm16-8k.voc", "VOC", "PCM_16", 8000, 1, 0.1),
    ("pcm16-8k.ircam", "IRCAM", "PCM_16", 8000, 1, 0.1),
    ("double-8k.mat4", "MAT4", "DOUBLE", 8000, 1, 0.1),
    ("pcm16-8k.mat5", "MAT5", "PCM_16", 8000, 1, 0.1),
    ("pcm16-8k.pvf", "PVF", "PCM_16", 8000, 1, 0.1),
    ("dpcm8-8k.xi", "XI", "DPCM_8", 8000, 1, 0.1),
    ("pcm16-8k.htk", "HTK", "PCM_16", 8000, 1, 0.1),
    ("pcm16-8k.sds", "SDS", "PCM_16", 8000, 1, 0.1),
    ("pcm16-8k.avr", "AVR", "PCM_16", 8000, 1, 0.1),
    ("alaw-8k.wve", "WVE", "ALAW", 8000, 1, 0.1),
    ("pcm16-44k.mpc2k", "MPC2K", "PCM_16", 44100, 1, 0.05),
]
for name, container, encoding, rate, channels, seconds in seeds:
    mono = clip(rate, seconds)
    # The second channel quieter, so a downmix differs from either channel.
    frames = [v * (1 if c == 0 else 0.5) for v in mono for c in range(channels)]
    out = Info(samplerate=rate, channels=channels, format=formats[container] | encodings[encoding])
    path = target / name
    handle = sndfile.sf_open(str(path).encode(), WRITE, ctypes.byref(out))
    if not handle:
        sys.exit(f"fuzz-seeds: libsndfile cannot write {name}: {sndfile.sf_strerror(None).decode()}")
    written = sndfile.sf_writef_float(handle, (ctypes.c_float * len(frames))(*frames), len(mono))
    sndfile.sf_close(handle)
    assert written == len(mono), name
PY

# Pictures: PNGs written here (zlib), JPEGs by libjpeg from the same pixels;
# ImageInspector reads only headers, but a real encoder's files carry the
# segments (DQT, DHT, SOF0/2/9, DRI, COM, APP1) a header walk must skip.
python3 - "$work" "$picture" <<'PY'
import pathlib, struct, sys, zlib

work, target = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])

def pixels(width, height):
    return [[((x * 255) // width, (y * 255) // height, 128) for x in range(width)] for y in range(height)]

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

def png(width, height, colour_type, extra=b""):
    channels = {0: 1, 2: 3, 6: 4}[colour_type]
    rows = b""
    for row in pixels(width, height):
        values = [v for rgb in row for v in ({0: rgb[:1], 2: rgb, 6: rgb + (200,)}[colour_type])]
        rows += b"\x00" + bytes(values[: width * channels])
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")

# A minimal TIFF-in-Exif block: one IFD with the orientation tag.
exif = b"Exif\x00\x00" + b"MM\x00\x2a\x00\x00\x00\x08" + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, 6, 0) + b"\x00\x00\x00\x00"
(target / "rgb-32x32.png").write_bytes(png(32, 32, 2))
(target / "grey-32x32.png").write_bytes(png(32, 32, 0))
(target / "rgba-exif-40x40.png").write_bytes(png(40, 40, 6, chunk(b"tEXt", b"Comment\x00fuzz seed") + chunk(b"eXIf", exif[6:])))
(target / "wide-4096x32.png").write_bytes(png(4096, 32, 0))
(target / "too-wide-4097x32.png").write_bytes(png(4097, 32, 0))

with open(work / "picture.ppm", "wb") as ppm:
    ppm.write(b"P6 64 48 255\n" + bytes(v for row in pixels(64, 48) for rgb in row for v in rgb))
(work / "exif.bin").write_bytes(exif)
PY
cjpeg -quality 80 "$work/picture.ppm" >"$picture/baseline-64x48.jpg"
cjpeg -quality 80 -progressive "$work/picture.ppm" >"$picture/progressive-64x48.jpg"
cjpeg -quality 80 -grayscale -arithmetic -restart 1 "$work/picture.ppm" >"$picture/grey-arithmetic-restart-64x48.jpg"
wrjpgcom -comment "fuzz seed" "$picture/baseline-64x48.jpg" >"$picture/comment-64x48.jpg"
# EXIF: an APP1 segment right after SOI, where cameras put it.
python3 - "$work/exif.bin" "$picture/baseline-64x48.jpg" "$picture/exif-64x48.jpg" <<'PY'
import pathlib, struct, sys
exif, source, target = (pathlib.Path(p) for p in sys.argv[1:])
jpeg, payload = source.read_bytes(), exif.read_bytes()
target.write_bytes(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])
PY
jpegtran -progressive -copy all "$picture/exif-64x48.jpg" >"$picture/exif-progressive-64x48.jpg"

du -sh "$audio" "$picture"
