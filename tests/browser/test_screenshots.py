"""The README's screenshots script: one page, one language, one size, on the
session's built sites; and its one-line refusal of a folder that is no site."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

from browser_support import needs_chromium

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "screenshots.py"


def png_pixels(data: bytes) -> tuple[int, int, int]:
    """Width, height and channels of a PNG whose image data inflates to exactly
    the bytes its header promises (a valid, whole 8-bit picture)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    position, header, image = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind, body = data[position + 4:position + 8], data[position + 8:position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length:position + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, f"bad checksum in {kind!r}"
        header = body if kind == b"IHDR" else header
        image += body if kind == b"IDAT" else b""
        position += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    channels = {2: 3, 6: 4}[colour]
    assert depth == 8
    assert len(zlib.decompress(image)) == height * (1 + width * channels)
    return width, height, channels


@needs_chromium
def test_the_script_takes_a_phone_screenshot_of_a_page(built_site: Path, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--site", str(built_site), "--out", str(tmp_path),
                           "--languages", "es", "--pages", "glossary", "--sizes", "phone"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    shot = tmp_path / "glossary-es-phone.png"
    assert done.stdout.split() == [str(shot)]
    width, height, _ = png_pixels(shot.read_bytes())
    assert (width, height) == (390, 844)
    assert 5_000 < shot.stat().st_size < 400_000


def test_a_folder_without_sites_is_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--site", str(tmp_path), "--out", str(tmp_path / "out"),
                           "--languages", "en"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no built site for language 'en'" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_the_png_check_refuses_a_cut_picture(tmp_path: Path) -> None:
    """png_pixels can fail: a PNG whose image data was cut short is refused."""
    row = b"\x00" + b"\xff\xff\xff" * 4
    whole = zlib.compress(row * 4)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
    good = b"\x89PNG\r\n\x1a\n" + header + chunk(b"IDAT", whole) + chunk(b"IEND", b"")
    assert png_pixels(good) == (4, 4, 3)
    short = b"\x89PNG\r\n\x1a\n" + header + chunk(b"IDAT", zlib.compress(row * 3)) + chunk(b"IEND", b"")
    try:
        png_pixels(short)
    except AssertionError:
        pass
    else:
        raise AssertionError("a picture three rows short passed")
