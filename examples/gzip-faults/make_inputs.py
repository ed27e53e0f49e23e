#!/usr/bin/env python3
"""Writes the gzip study's inputs into DIR (default: inputs/), deterministically.

Plain files of every kind, .gz files (made with Python's zlib, so gzip's own
encoder is not trusted to make its test inputs), corrupt and truncated .gz,
LZW (.Z) files for the unlzw path and LZH-tagged files for the unlzh path.
Every file gets the same fixed mtime: gzip stores it in its headers.
"""
import gzip, io, os, random, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
rng = random.Random(20150601)
files = {}

words = "range monitor fault gzip deflate inflate huffman window match literal length distance tree block".split()
def text(n_lines):
    return "".join(" ".join(rng.choice(words) for _ in range(rng.randint(3, 14))) + "\n" for _ in range(n_lines)).encode()

files["empty.txt"] = b""
files["one.txt"] = b"a"
files["small.txt"] = b"hello, hello, hello world\n"
files["text.txt"] = text(400)
files["large.txt"] = text(40000)
files["zeros.bin"] = bytes(200000)
files["random.bin"] = bytes(rng.getrandbits(8) for _ in range(150000))
files["binary.bin"] = bytes((i * 7 + (i >> 8)) % 251 for i in range(120000))
files["mixed.bin"] = text(200) + bytes(rng.getrandbits(8) for _ in range(20000)) + text(200)
files["runs.txt"] = b"".join(bytes([65 + i % 26]) * (1 + i % 300) for i in range(2000))
files["dir/a.txt"] = text(50)
files["dir/b.bin"] = bytes(rng.getrandbits(8) for _ in range(3000))
files["dir/sub/c.txt"] = text(80)
files["multi/x.txt"] = text(30)
files["multi/y.txt"] = text(60)
files["multi/z.txt"] = b"zzz\n" * 500

def gz(data, level=6, name=None):
    buf = io.BytesIO()
    with gzip.GzipFile(filename=name or "", mode="wb", compresslevel=level, fileobj=buf, mtime=0) as f:
        f.write(data)
    return buf.getvalue()

plain = ["empty.txt", "one.txt", "small.txt", "text.txt", "large.txt", "zeros.bin", "random.bin", "binary.bin", "mixed.bin", "runs.txt"]
for name in plain:
    files["gz/" + name + ".gz"] = gz(files[name], level=9 if "bin" in name else 6, name=name)
files["gz/concat.gz"] = gz(files["small.txt"]) + gz(files["text.txt"])
good = gz(files["text.txt"])
files["bad/truncated-half.gz"] = good[: len(good) // 2]
files["bad/truncated-trailer.gz"] = good[:-4]
files["bad/header-only.gz"] = good[:10]
files["bad/crc.gz"] = good[:-8] + bytes([good[-8] ^ 0xFF]) + good[-7:]
files["bad/length.gz"] = good[:-4] + bytes([good[-4] ^ 0x01]) + good[-3:]
files["bad/flipped.gz"] = good[:200] + bytes([good[200] ^ 0x55]) + good[201:]
files["bad/magic.gz"] = b"\x1f\x8c" + good[2:]
files["bad/method.gz"] = good[:2] + b"\x07" + good[3:]
files["bad/garbage.gz"] = bytes(rng.getrandbits(8) for _ in range(500))
files["bad/trailing-garbage.gz"] = good + b"garbage after the member"

def lzw(data):
    """LZW as compress(1) writes it, with 9-bit codes only (inputs are short)."""
    table = {bytes([i]): i for i in range(256)}
    nxt, codes, w = 257, [], b""  # block mode: code 256 is CLEAR
    for c in data:
        wc = w + bytes([c])
        if wc in table:
            w = wc
            continue
        codes.append(table[w])
        if nxt < 512:
            table[wc] = nxt
            nxt += 1
        w = bytes([c])
    if w:
        codes.append(table[w])
    assert nxt <= 511, "input too long for 9-bit codes"
    bits = bitlen = 0
    body = bytearray()
    for code in codes:
        bits |= code << bitlen
        bitlen += 9
        while bitlen >= 8:
            body.append(bits & 0xFF)
            bits >>= 8
            bitlen -= 8
    if bitlen:
        body.append(bits & 0xFF)
    return b"\x1f\x9d\x90" + bytes(body)  # maxbits 16, block mode

lzw_inputs = {"a.Z": b"a", "small.Z": files["small.txt"], "abc.Z": b"abcabcabcabcabcabcabc\n",
              "text.Z": files["text.txt"][:300], "bin.Z": files["binary.bin"][:200], "runs.Z": b"x" * 400}
for name, data in lzw_inputs.items():
    files["lzw/" + name] = lzw(data)
files["lzw/first-code-bad.Z"] = b"\x1f\x9d\x90" + bytes([0x05, 0x03, 0x00])  # first code 261
files["lzw/truncated.Z"] = lzw(files["text.txt"][:300])[:40]

for i in range(4):
    body = bytes(rng.getrandbits(8) for _ in range(64 + 64 * i))
    files[f"lzh/junk{i}.lzh"] = b"\x1f\xa0" + body

epoch = 1_400_000_000
for name, data in sorted(files.items()):
    path = os.path.join(out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
for root, dirs, names in os.walk(out):
    for n in names + dirs:
        os.utime(os.path.join(root, n), (epoch, epoch))
