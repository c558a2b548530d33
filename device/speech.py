"""The count said aloud: each scoring moment spoken through the table's speaker with espeak-ng.

An output of the board (:class:`device.board.outputs.Output`): the OLED shows a count while the
speaker says it ("Bob: fifteen 2, fifteen 4, pair is 6"). It speaks in a thread of its own, so
the board never waits for a sentence; when counts come faster than they can be said, only the
newest waiting one is said. ``[speech]`` in the config: on by default once ``speaker`` names an
ALSA device (``"default"`` on a Pi with its audio configured), with a ``volume`` from 0 to 100.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import CompanionError
from games.view import TableView

log = logging.getLogger("pegpi")

#: the program that turns text into speech (Debian's package of the same name)
PROGRAM = "espeak-ng"
#: espeak-ng's amplitude at volume 100 (it takes 0 to 200; 100 is its own normal loudness)
LOUDEST = 200


def words_for(view: TableView) -> str | None:
    """What a player says at a view's scoring moment: whose points and the count, the last item
    said with "is" ("fifteen 2, pair is 4"); None when the view has no score to say."""
    last = view.last
    if last is None or not last.say:
        return None
    names = [side.name for side in view.sides]
    who = names[last.side] if 0 <= last.side < len(names) else ""
    count = last.say
    head, comma, tail = count.rpartition(", ")
    if comma and " is " not in tail and tail.split()[-1].isdigit():
        words = tail.split()
        count = f"{head}, {' '.join(words[:-1])} is {words[-1]}"
    return f"{who}: {count}" if who else count


@dataclass(frozen=True)
class SpeechConfig:
    enabled: bool = True
    speaker: str = ""  # an ALSA device for `aplay -D`; "" : no speaker, nothing is said
    volume: int = 50  # 0 silent .. 100 loudest
    voice: str = "en"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> SpeechConfig:
        data = data or {}
        return cls(enabled=bool(data.get("enabled", True)), speaker=str(data.get("speaker", "")),
                   volume=int(data.get("volume", 50)), voice=str(data.get("voice", "en")))

    @property
    def wanted(self) -> bool:
        """Speech is on when it is enabled and a speaker is configured."""
        return self.enabled and bool(self.speaker)


class CountVoice:
    """Says each scoring moment; ``render`` writes a sentence to a WAV file instead (tests, and a
    way to hear the voice without a speaker)."""

    def __init__(self, config: SpeechConfig, *, program: str | None = None) -> None:
        found = program or shutil.which(PROGRAM)
        if found is None:
            raise CompanionError(f"speech: {PROGRAM} is not installed (sudo apt-get install {PROGRAM}), "
                                 "or turn it off with [speech] enabled = false")
        if config.speaker and shutil.which("aplay") is None:
            raise CompanionError("speech: aplay is not installed (sudo apt-get install alsa-utils), "
                                 "or turn it off with [speech] enabled = false")
        self.program = found
        self.config = config
        self._waiting: queue.Queue[str | None] = queue.Queue(maxsize=1)
        self._worker: threading.Thread | None = None

    # ------------------------------------------------------------------ the board's output

    def show(self, view: TableView) -> None:
        """A view that is not a scoring moment: nothing to say."""

    def announce(self, view: TableView) -> None:
        words = words_for(view)
        if words is None or not self.config.speaker:
            return
        if self._worker is None:
            self._worker = threading.Thread(target=self._run, name="pegpi-speech", daemon=True)
            self._worker.start()
        try:
            self._waiting.get_nowait()  # a count not yet said gives way to the newer one
        except queue.Empty:
            pass
        try:
            self._waiting.put_nowait(words)
        except queue.Full:
            pass

    def close(self) -> None:
        """Stop once the count still waiting (if any) has been said."""
        if self._worker is not None:
            try:
                self._waiting.put(None, timeout=10.0)
            except queue.Full:
                log.warning("speech: the speaker is not keeping up; stopping without the last count")
            self._worker.join(timeout=10.0)
            self._worker = None

    # ------------------------------------------------------------------ speaking

    def command(self, words: str, *, wav: Path | None = None) -> list[str]:
        """The espeak-ng command line for ``words`` at the configured volume and voice: to a WAV
        file, or as WAV on its standard output."""
        amplitude = round(LOUDEST * max(0, min(100, self.config.volume)) / 100)
        out = ["-w", str(wav)] if wav is not None else ["--stdout"]
        return [self.program, "-a", str(amplitude), "-v", self.config.voice, *out, "--", words]

    def render(self, words: str, wav: Path) -> Path:
        """Write ``words`` spoken to the WAV file ``wav``."""
        done = subprocess.run(self.command(words, wav=wav), capture_output=True, timeout=60, check=False)
        if done.returncode != 0:
            raise CompanionError(f"speech: {PROGRAM} failed: {done.stderr.decode(errors='replace').strip()}")
        return wav

    def say(self, words: str) -> None:
        """Speak ``words`` on the speaker now (waits until it is said)."""
        speak = subprocess.Popen(self.command(words), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            play = subprocess.run(["aplay", "-q", "-D", self.config.speaker, "-"], stdin=speak.stdout,
                                  capture_output=True, timeout=60, check=False)
        finally:
            if speak.stdout is not None:
                speak.stdout.close()
            speak.wait(timeout=10)
        if play.returncode != 0:
            raise CompanionError(f"speech: aplay -D {self.config.speaker} failed: "
                                 f"{play.stderr.decode(errors='replace').strip()}")

    def _run(self) -> None:
        while True:
            words = self._waiting.get()
            if words is None:
                return
            try:
                self.say(words)
            except (OSError, subprocess.SubprocessError, CompanionError) as exc:
                log.warning("speech: could not say %r: %s", words, exc)
