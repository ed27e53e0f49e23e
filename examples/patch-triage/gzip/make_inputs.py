#!/usr/bin/env python3
"""Writes the inputs of the gzip patch-triage example into DIR (default:
inputs/ beside this script), deterministically.

The deflate streams that matter are written bit by bit here (fixed Huffman
codes and stored blocks), since no compressor writes a distance that reaches
before the start of its output. Each crafted member's CRC and length are
those of what gzip 1.12 outputs for it (its window starts zero-filled and
keeps the previous member's bytes), so gzip 1.12 accepts the invalid ones
without a word: that is the bug. Every stream is checked against Python's
zlib: the valid ones must decompress to the same bytes, the invalid ones
must be refused ("invalid distance too far back").

  inputs/*.gz          fed to `gzip -dc` (tests.txt); a triage over the
                       directory can feed each on stdin
  inputs/plain/*.txt   plain text for the round trips of tests.txt
"""
import os, random, sys, zlib

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")

WSIZE = 32768
LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
LEXT = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]
DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
         1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
DEXT = [0, 0, 0, 0] + [i // 2 for i in range(2, 28)]


class Bits:
    """Deflate's bit order: values LSB first, Huffman codes MSB first."""

    def __init__(self):
        self.data, self.acc, self.n = bytearray(), 0, 0

    def put(self, value, nbits):
        self.acc |= value << self.n
        self.n += nbits
        while self.n >= 8:
            self.data.append(self.acc & 0xFF)
            self.acc >>= 8
            self.n -= 8

    def code(self, code, nbits):
        self.put(int(format(code, "0%db" % nbits)[::-1], 2), nbits)

    def align(self):
        if self.n:
            self.put(0, 8 - self.n)

    def bytes(self):
        self.align()
        return bytes(self.data)


def fixed_symbol(bits, sym):
    if sym < 144:
        bits.code(0x30 + sym, 8)
    elif sym < 256:
        bits.code(0x190 + sym - 144, 9)
    elif sym < 280:
        bits.code(sym - 256, 7)
    else:
        bits.code(0xC0 + sym - 280, 8)


def index(bases, value):
    return max(i for i, b in enumerate(bases) if b <= value)


def deflate(blocks):
    """blocks: list of ("stored", bytes) or ("fixed", ops); ops are bytes
    (literals) or (length, distance) copies. The last block is final."""
    bits = Bits()
    for i, (kind, body) in enumerate(blocks):
        bits.put(1 if i == len(blocks) - 1 else 0, 1)
        if kind == "stored":
            bits.put(0, 2)
            bits.align()
            bits.put(len(body), 16)
            bits.put(len(body) ^ 0xFFFF, 16)
            for c in body:
                bits.put(c, 8)
            continue
        bits.put(1, 2)
        for op in body:
            if isinstance(op, bytes):
                for c in op:
                    fixed_symbol(bits, c)
                continue
            length, dist = op
            li = index(LBASE, length)
            fixed_symbol(bits, 257 + li)
            bits.put(length - LBASE[li], LEXT[li])
            di = index(DBASE, dist)
            bits.code(di, 5)
            bits.put(dist - DBASE[di], DEXT[di])
        fixed_symbol(bits, 256)
    return bits.bytes()


class Gzip112:
    """What gzip 1.12's inflate outputs: one 32K window for the whole
    process (zero at start), its position reset to 0 at each member, and a
    copy taken from (position - distance) modulo 32K, whatever is there."""

    def __init__(self):
        self.window = bytearray(WSIZE)

    def member(self, blocks):
        w, data, valid = 0, bytearray(), True
        for kind, body in blocks:
            ops = [body] if kind == "stored" else body
            for op in ops:
                if isinstance(op, bytes):
                    pairs = [(c, None) for c in op]
                else:
                    length, dist = op
                    valid &= dist <= len(data)
                    pairs = [(None, dist)] * length
                for c, dist in pairs:
                    if c is None:
                        c = self.window[(w - dist) % WSIZE]
                    self.window[w] = c
                    data.append(c)
                    w = (w + 1) % WSIZE
        return bytes(data), valid


def gzip_member(blocks, data):
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
    trailer = (zlib.crc32(data) & 0xFFFFFFFF).to_bytes(4, "little") + (len(data) & 0xFFFFFFFF).to_bytes(4, "little")
    return header + deflate(blocks) + trailer


def crafted(*members):
    """A .gz file of crafted members; checked against zlib."""
    gz = Gzip112()
    result = b""
    for blocks in members:
        data, valid = gz.member(blocks)
        raw = deflate(blocks)
        try:
            ok = zlib.decompress(raw, -15) == data
        except zlib.error as err:
            assert "too far back" in str(err), err
            ok = False
        assert ok == valid, (blocks, ok, valid)
        result += gzip_member(blocks, data)
    return result


def zlib_gzip(*chunks, level=6):
    """gzip format from zlib (mtime 0), a sync flush between chunks: each
    chunk ends a block, and later blocks may copy from earlier ones."""
    c = zlib.compressobj(level, zlib.DEFLATED, 31)
    parts = []
    for i, chunk in enumerate(chunks):
        parts.append(c.compress(chunk))
        if i < len(chunks) - 1:
            parts.append(c.flush(zlib.Z_SYNC_FLUSH))
    parts.append(c.flush())
    return b"".join(parts)


rng = random.Random(20250301)
words = ("window distance length literal block member stream copy match "
         "huffman inflate deflate header trailer crc size stored fixed dynamic").split()


def text(n_lines):
    return "".join(" ".join(rng.choice(words) for _ in range(rng.randint(3, 12))) + "\n"
                   for _ in range(n_lines)).encode()


files = {}
files["plain/words.txt"] = text(700)
lines = text(60)[:1000]

# The report's input: a member whose first symbol is a copy; gzip 1.12
# outputs eight zero bytes and "tail", and exits 0.
files["start.gz"] = crafted([("fixed", [(8, 4), b"tail\n"])])
# One byte too far: after 5 literals, a copy of distance 6 (distance code 4,
# base 5 plus one extra bit).
files["edge.gz"] = crafted([("fixed", [b"abcde", (3, 6), b"\n"])])
# Two members; the second starts with a copy of distance 32761 that gzip
# 1.12 takes from the first member's bytes ("world").
files["member2.gz"] = crafted([("fixed", [b"hello, world\n"])], [("fixed", [(5, 32761), b"\n"])])
# Valid: 1000 bytes in a stored block, then copies of distance 1000 (the
# first one reaches exactly the first byte) for 34 KB, so the window
# wraps and later copies cross the wrap.
files["long.gz"] = crafted([("stored", lines), ("fixed", [(258, 1000)] * 128 + [b"end\n"])])
# Valid, from zlib: two blocks, the second copying from the first.
files["sync.gz"] = zlib_gzip(b"hello hello hello\n", b"hello again, hello\n")
# Valid, from zlib: a whole text at level 9; and two members.
files["words.gz"] = zlib_gzip(files["plain/words.txt"], level=9)
files["multi.gz"] = zlib_gzip(b"first member\n") + zlib_gzip(text(5), level=1)

for name, data in sorted(files.items()):
    path = os.path.join(out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    print(f"{len(data):7d} {name}")
