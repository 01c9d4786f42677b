#!/usr/bin/env python3
"""`pivot render` (docs/cli.md): a picture and a video of a run, judged independently of pivot.

- `--png T` writes a PNG of the size asked for (read from the PNG header), not of one colour;
  two different times give different pictures, the same time the same picture;
- the video, read back by ffprobe: H.264, the size asked for, floor(duration * fps) + 1 frames,
  and the duration that number of frames makes;
- without chromium (PIVOT_CHROMIUM pointing nowhere) or ffmpeg (PIVOT_FFMPEG) the command exits
  2 with one line that names the missing program and how to install it.

usage: check_render.py PIVOT SCENE OUT_DIR     (exit 77 without chromium or ffmpeg)"""

import json
import os
import shutil
import struct
import subprocess
import sys
import zlib


def fail(message):
    print("FAILED:", message)
    sys.exit(1)


def run(command, code=0, env=None):
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != code:
        fail(f"{' '.join(command)}: exit {done.returncode}, expected {code}\n{done.stderr}")
    return done.stdout, done.stderr


def png_size_and_pixels(path):
    """(width, height) from IHDR, and the decompressed image data (enough to tell colours)"""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    chunks, i = [], 8
    while i < len(data):
        length = struct.unpack(">I", data[i:i + 4])[0]
        kind = data[i + 4:i + 8]
        if kind == b"IDAT":
            chunks.append(data[i + 8:i + 8 + length])
        i += 12 + length
    return (width, height), zlib.decompress(b"".join(chunks))


def main():
    pivot, scene, out = sys.argv[1], sys.argv[2], sys.argv[3]
    if not os.path.exists(os.environ.get("PIVOT_CHROMIUM", "/usr/bin/chromium")):
        print("SKIP: no chromium (apt-get install chromium, or tools/setup.sh --viewer-tests)")
        sys.exit(77)
    ffprobe = shutil.which("ffprobe")
    if ffprobe is None or not os.path.exists("/usr/bin/ffmpeg"):
        print("SKIP: no ffmpeg/ffprobe (apt-get install ffmpeg)")
        sys.exit(77)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    run_dir = os.path.join(out, "run")
    duration = 0.5
    run([pivot, "run", scene, "--out", run_dir, "--duration", str(duration), "--quiet",
         "--set", "/settings/output_rate_hz=100"])

    shots = {}
    for name, t in (("a", 0.0), ("b", 0.45), ("c", 0.45)):
        path = os.path.join(out, f"{name}.png")
        run([pivot, "render", run_dir, "--png", str(t), "--size", "320x240", "--out", path,
             "--quiet"])
        size, pixels = png_size_and_pixels(path)
        if size != (320, 240):
            fail(f"--png at {t}: {size}, expected (320, 240)")
        if len(set(pixels[1:400])) < 3:
            fail(f"--png at {t}: the picture is of one colour")
        shots[name] = pixels
    if shots["a"] == shots["b"]:
        fail("the pictures at t = 0 and t = 0.45 s are the same: the time was not shown")
    if shots["b"] != shots["c"]:
        fail("two pictures at t = 0.45 s differ")

    video = os.path.join(out, "run.mp4")
    fps = 20
    _, err = run([pivot, "render", run_dir, "--out", video, "--size", "320x240", "--fps", str(fps)])
    if "render: frame" not in err:
        fail(f"no progress on stderr: {err!r}")
    probe, _ = run([ffprobe, "-v", "error", "-count_frames", "-select_streams", "v:0",
                    "-show_entries", "stream=codec_name,width,height,nb_read_frames",
                    "-of", "json", video])
    stream = json.loads(probe)["streams"][0]
    frames = int(duration * fps + 1e-9) + 1
    if (stream["codec_name"], stream["width"], stream["height"]) != ("h264", 320, 240):
        fail(f"the video is {stream}, expected h264 320x240")
    if int(stream["nb_read_frames"]) != frames:
        fail(f"the video has {stream['nb_read_frames']} frames, expected {frames}")
    leftovers = [f for f in os.listdir(out) if f.startswith(".pivot-render")]
    if leftovers:
        fail(f"temporary folders left behind: {leftovers}")

    for variable, program in (("PIVOT_CHROMIUM", "chromium"), ("PIVOT_FFMPEG", "ffmpeg")):
        env = dict(os.environ)
        env[variable] = os.path.join(out, "nowhere")
        _, err = run([pivot, "render", run_dir, "--out", os.path.join(out, "x.mp4")], code=2,
                     env=env)
        if not err.startswith(f"pivot: error: pivot render needs {program}") or "apt-get install" not in err \
                or err.count("\n") != 1:
            fail(f"without {program}: {err!r}")
        if os.path.exists(os.path.join(out, "x.mp4")):
            fail(f"without {program} a file was written")
    print(f"pictures 320x240 differ in time; video h264 320x240 with {frames} frames")


if __name__ == "__main__":
    main()
