#!/bin/sh
# Regenerates background-conversation.wav: a synthetic two-speaker conversation that the background_speech
# preset mixes under the caller. Written for this project; made with Debian's espeak-ng 1.51 and SoX 14.4.2
# (apt-get install -y espeak-ng sox). The committed WAV is what tests and users get; nothing runs this at
# test time. Speaker A is en-us at 165 words per minute, speaker B en-gb+f3 at 150; 350 ms between turns.
# Output: mono 16-bit PCM at 24000 Hz (sox's high-quality rate conversion from espeak's 22050 Hz, without
# dither so that a rerun gives the same bytes).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say() { # speaker index text
  if [ "$1" = A ]; then voice=en-us; rate=165; else voice=en-gb+f3; rate=150; fi
  espeak-ng -v "$voice" -s "$rate" -w "$work/$2.wav" "$3"
  sox -D "$work/$2.wav" -r 24000 -c 1 -b 16 "$work/$2-24k.wav" pad 0 0.35
}

say A 01 "Did you remember to pick up the groceries on the way home?"
say B 02 "I got most of it, but they were out of the bread you like."
say A 03 "That's fine, we can get some tomorrow morning before work."
say B 04 "Are we still meeting your brother for lunch on Saturday?"
say A 05 "I think so. He said he would call tonight to confirm."
say B 06 "Okay. Remind me to water the plants before we leave."
say A 07 "Sure. Did you see the weather is supposed to turn cold?"
say B 08 "Yes, I might finally dig out my winter coat."

sox -D "$work"/0?-24k.wav "$here/background-conversation.wav"
