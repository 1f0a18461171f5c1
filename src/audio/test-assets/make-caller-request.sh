#!/bin/sh
# Regenerates caller-request.wav, the real-speech signal the audio tests measure effects on: two sentences
# from espeak-ng 1.51 (Debian; en-us, 160 words per minute) with 600 ms of digital silence between them and
# 500 ms at each end, as mono 16-bit PCM at 24000 Hz (SoX 14.4.2, no dither, so reruns give the same bytes).
# Needs: apt-get install -y espeak-ng sox. Tests use the committed file; nothing runs this at test time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
espeak-ng -v en-us -s 160 -w "$work/a.wav" "Hi, I would like to book a table for four people."
espeak-ng -v en-us -s 160 -w "$work/b.wav" "Tomorrow at seven, if you have room."
sox -D "$work/a.wav" -r 24000 -c 1 -b 16 "$work/a24.wav" pad 0.5 0.6
sox -D "$work/b.wav" -r 24000 -c 1 -b 16 "$work/b24.wav" pad 0 0.5
sox -D "$work/a24.wav" "$work/b24.wav" "$here/caller-request.wav"
