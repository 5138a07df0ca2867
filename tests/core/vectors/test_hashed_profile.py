"""The offline default embedding profile: deterministic in every process, unit-length rows,
near texts near each other in English and in Chinese, the empty text the zero vector."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from memgraph_gui.core.vectors.hashed import DIM, PROFILE, embed, grams
from tests.core.processes import ROOT

TEXTS = [
    "Eileen betrayed the king",
    "the betrayal of the crown",
    "a quiet afternoon tea",
    "艾琳背叛了国王",
    "国王被艾琳背叛",
    "下午茶很安静",
]


def test_the_same_vectors_in_another_process() -> None:
    here = embed(TEXTS)
    script = (
        "import sys, json; from memgraph_gui.core.vectors.hashed import embed; "
        "sys.stdout.write(embed(json.loads(sys.argv[1])).tobytes().hex())"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(TEXTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": ""},  # another string hash than this process's
    )
    assert bytes.fromhex(done.stdout) == here.tobytes()


def test_rows_are_unit_length_float32_and_the_empty_text_is_zero() -> None:
    vectors = embed([*TEXTS, "", "   "])
    assert vectors.dtype == np.float32 and vectors.shape == (len(TEXTS) + 2, DIM)
    assert np.allclose(np.linalg.norm(vectors[: len(TEXTS)], axis=1), 1.0, atol=1e-6)
    assert not vectors[-2:].any()
    assert PROFILE == "hashed-ngrams-v1"


def test_near_texts_are_nearer_in_english_and_chinese() -> None:
    v = embed(TEXTS)
    similar = v @ v.T
    assert similar[0, 1] > 3 * max(similar[0, 2], 0.05)  # betrayed ~ betrayal, not tea
    assert similar[3, 4] > 3 * max(similar[3, 5], 0.05)  # 背叛 / 艾琳 / 国王 shared, not 下午茶
    assert similar[0, 3] < 0.1  # another script shares nothing


def test_grams_fold_case_and_width_and_split_mixed_runs() -> None:
    assert grams("ＥＩＬＥＥＮ") == grams("eileen")  # full-width, upper case
    assert grams("艾琳abc背叛") == {
        "艾": 1, "琳": 1, "艾琳": 1, "abc": 1, "背": 1, "叛": 1, "背叛": 1,
    }  # fmt: skip


def _by_definition(texts: list[str]) -> np.ndarray:
    """The module docstring's vectors, one gram at a time (the plain reading of it)."""
    import math
    import zlib

    out = np.zeros((len(texts), DIM), np.float32)
    for row, text in enumerate(texts):
        for gram, count in grams(text).items():
            code = zlib.crc32(gram.encode("utf-8"))
            out[row, code % DIM] += (1.0 if code & 0x80000000 else -1.0) * (1 + math.log(count))
    norms = np.linalg.norm(out, axis=1)
    np.divide(out, norms[:, None], out=out, where=norms[:, None] > 0)
    return out


def test_the_fast_embedding_is_the_definitions() -> None:
    texts = [*TEXTS, "Eileen, Eileen and EILEEN again", "艾琳abc背叛 国王 国王", "", "x"]
    assert np.allclose(embed(texts), _by_definition(texts), atol=1e-6)
    assert np.allclose(embed(texts), embed(texts))  # the remembered runs change nothing
