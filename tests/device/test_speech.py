"""The count said aloud (issue 39, beyond): the words are the engine's count, the voice is
rendered by espeak-ng to a WAV file, its loudness follows the volume setting, and it is on by
default once a speaker is configured."""

from __future__ import annotations

import array
import shutil
import wave
from pathlib import Path

import pytest

from device.board import samples
from device.config import load_config
from device.speech import CountVoice, SpeechConfig, words_for

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


def test_the_words_are_the_engines_count_of_the_hand() -> None:
    view = samples.ALL["show"]()  # Bob's 5H 5S JD 4C with the 5D, counted by the engine
    assert words_for(view) == ("Bob: fifteen 2, fifteen 4, fifteen 6, fifteen 8, pair royal 14, "
                               "his nob is 15")
    assert words_for(samples.ALL["go"]()) == "Bob: go for 1"
    assert words_for(samples.ALL["start"]()) is None  # nothing scored: nothing to say


def _samples(path: Path) -> tuple[int, float, int]:
    """(sample rate, seconds, loudest sample) of a mono 16-bit WAV file."""
    with wave.open(str(path)) as wav:
        assert wav.getnchannels() == 1 and wav.getsampwidth() == 2
        frames = wav.readframes(wav.getnframes())
        rate, seconds = wav.getframerate(), wav.getnframes() / wav.getframerate()
    data = array.array("h", frames)
    return rate, seconds, max((abs(x) for x in data), default=0)


@needs_espeak
def test_the_count_is_rendered_as_speech_at_the_configured_volume(tmp_path: Path) -> None:
    words = words_for(samples.ALL["show"]())
    assert words is not None
    loud = CountVoice(SpeechConfig(volume=100)).render(words, tmp_path / "loud.wav")
    quiet = CountVoice(SpeechConfig(volume=20)).render(words, tmp_path / "quiet.wav")
    silent = CountVoice(SpeechConfig(volume=0)).render(words, tmp_path / "silent.wav")
    rate, seconds, peak = _samples(loud)
    assert rate >= 16000
    assert 3.0 < seconds < 15.0  # a sentence of six items, said at a speaking pace
    assert peak > 8000
    _, quiet_seconds, quiet_peak = _samples(quiet)
    assert abs(quiet_seconds - seconds) < 0.5  # the same sentence...
    assert 0 < quiet_peak < peak / 2  # ...said more quietly
    assert _samples(silent)[2] == 0


def test_speech_is_on_by_default_once_a_speaker_is_configured() -> None:
    default = SpeechConfig.from_mapping(load_config(system=None)["speech"])
    assert default.enabled and not default.wanted  # no speaker configured: silent
    configured = SpeechConfig.from_mapping(load_config(system=None, text='[speech]\nspeaker = "default"')["speech"])
    assert configured.wanted and configured.volume == default.volume
    off = load_config(system=None, text='[speech]\nspeaker = "default"\nenabled = false')["speech"]
    assert not SpeechConfig.from_mapping(off).wanted


@needs_espeak
def test_a_scoring_moment_is_said_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    voice = CountVoice(SpeechConfig(speaker="default")) if shutil.which("aplay") else None
    if voice is None:
        pytest.skip("aplay is not installed")
    monkeypatch.setattr(voice, "say", said.append)  # no speaker here: what would be said is kept
    voice.show(samples.ALL["show"]())  # not a scoring moment for the board: silent
    voice.announce(samples.ALL["show"]())
    voice.close()
    assert said == [words_for(samples.ALL["show"]())]
