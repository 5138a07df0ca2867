"""The model embedding profile (WordLlama from the ``model`` extra): WordLlama's own embedding,
deterministic, offline, loaded once, ranks paraphrases (English well, Chinese measured), and a
clear error when the package is missing."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.vectors import model
from memgraph_gui.core.vectors.embedders import embedder_for
from memgraph_gui.core.vectors.model import CHUNK, DIM, PROFILE, ModelEmbedder, model_available
from memgraph_gui.core.vectors.profiles import MODEL_SPEC
from tests.core.processes import ROOT

EMBED = ModelEmbedder(MODEL_SPEC).embed

# Each query and its paraphrase; every other pair's paraphrase is a distractor.
ENGLISH = [
    ("The knight was afraid of the dark forest", "The warrior feared the gloomy woods"),
    ("Eileen betrayed the king to his enemies", "The monarch was sold out by Eileen"),
    ("They celebrated the victory with a feast", "A banquet was held to mark the triumph"),
    ("The ship sank during the storm", "The vessel went down in the tempest"),
    ("She lost the letter from her mother", "Her mom's note went missing"),
    ("The old wizard died in his tower", "The aged sorcerer passed away in his keep"),
]
CHINESE = [  # the same six, paraphrased in Chinese (some characters shared)
    ("骑士害怕黑暗的森林", "战士畏惧阴暗的树林"),
    ("艾琳把国王出卖给了敌人", "君主遭到艾琳背叛"),
    ("他们用盛宴庆祝胜利", "为纪念凯旋举办了宴会"),
    ("船在暴风雨中沉没了", "那艘船在风暴里沉了"),
    ("她弄丢了母亲的信", "妈妈写的信不见了"),
    ("老巫师死在了他的塔里", "年迈的法师在高塔中去世"),
]
CHINESE_NO_SHARED = [  # paraphrases sharing no character with their query
    ("国王生病了", "君主抱恙"),
    ("老人死了", "长者辞世"),
    ("孩子们在公园玩耍", "小朋友于花圃嬉戏"),
    ("她非常难过", "那姑娘很伤心"),
    ("军队攻占了城堡", "士兵夺下要塞"),
    ("我们明天出发", "咱后日启程"),
]


def first_places(pairs: list[tuple[str, str]]) -> int:
    """How many queries rank their own paraphrase first among all the paraphrases."""
    queries, answers = EMBED([q for q, _ in pairs]), EMBED([a for _, a in pairs])
    return int((np.argmax(queries @ answers.T, axis=1) == np.arange(len(pairs))).sum())


def test_the_profile_is_named() -> None:
    assert PROFILE == "wordllama-l2-256" and DIM == 256 and model_available()
    assert isinstance(embedder_for(MODEL_SPEC), ModelEmbedder)


def test_unit_rows_and_zero_rows_for_empty_texts() -> None:
    rows = EMBED(["Eileen betrayed the king", "", " \n\t", "艾琳背叛了国王"])
    assert rows.dtype == np.float32 and rows.shape == (4, DIM)
    np.testing.assert_allclose(np.linalg.norm(rows[[0, 3]], axis=1), 1.0, rtol=1e-5)
    assert not rows[1].any() and not rows[2].any()
    assert EMBED([]).shape == (0, DIM)


def test_deterministic_and_independent_of_the_batch() -> None:
    texts = [q for pair in ENGLISH + CHINESE for q in pair]
    together = EMBED(texts)
    one_by_one = np.vstack([EMBED([t]) for t in texts])
    np.testing.assert_allclose(together, one_by_one, atol=1e-6)
    assert EMBED(texts).tobytes() == together.tobytes()


def test_english_paraphrases_rank_first() -> None:
    assert first_places(ENGLISH) == len(ENGLISH)


def test_chinese_paraphrases_measured() -> None:
    """Llama 2's tokenizer spells most Chinese characters as UTF-8 bytes, so the model sees
    Chinese mostly through shared characters: paraphrases sharing some rank first (6 of 6);
    paraphrases sharing none rank first 3 times in 6 (chance is 1 in 6), and every Chinese text
    is fairly near every other (mean cosine ≈ 0.3–0.5, English ≈ 0.14)."""
    assert first_places(CHINESE) == len(CHINESE)
    assert first_places(CHINESE_NO_SHARED) >= 3


def test_progress_and_cancel_per_chunk() -> None:
    texts = [f"memory {i}" for i in range(2 * CHUNK + 10)]
    calls: list[tuple[int, int]] = []
    EMBED(texts, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(CHUNK, len(texts)), (2 * CHUNK, len(texts)), (len(texts), len(texts))]
    cancel = threading.Event()
    with pytest.raises(MemgraphError) as caught:
        EMBED(texts, cancel=cancel, progress=lambda d, t: cancel.set())
    assert caught.value.code == "EMBEDDING_CANCELLED"


def test_loaded_once_for_every_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[int] = []
    real = model._load

    def slow_load() -> object:
        loads.append(1)
        time.sleep(0.05)  # widen the window in which a second load could start
        return real()

    monkeypatch.setattr(model, "_load", slow_load)
    lazy = model._Lazy()
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(lazy.get())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(loads) == 1 and len(got) == 4 and all(g is got[0] for g in got)


@pytest.mark.parametrize("missing", ["wordllama", "tokenizers", "safetensors.numpy"])
def test_a_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # `import missing` now raises ImportError
    monkeypatch.setattr(model, "_cache", model._Lazy())
    with pytest.raises(MemgraphError) as caught:
        ModelEmbedder(MODEL_SPEC).embed(["anything"])
    assert caught.value.code == "EMBEDDING_MODEL_MISSING"
    assert "pip install 'memgraph-gui[model]'" in caught.value.message
    assert ModelEmbedder(MODEL_SPEC).embed([]).shape == (0, DIM)  # nothing to embed loads nothing


def test_damaged_model_files_fail_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model, "_WEIGHTS", ("weights", "gone.safetensors"))
    monkeypatch.setattr(model, "_cache", model._Lazy())
    with pytest.raises(MemgraphError) as caught:
        ModelEmbedder(MODEL_SPEC).embed(["anything"])
    assert caught.value.code == "EMBEDDING_FAILED" and "could not be read" in caught.value.message


OFFLINE_SCRIPT = """
import json, sys
def no_network(event, args):
    if event.startswith("socket.") or event == "urllib.Request":
        raise RuntimeError(f"network used: {event} {args!r}")
sys.addaudithook(no_network)
from memgraph_gui.core.vectors.model import ModelEmbedder
from memgraph_gui.core.vectors import model
from memgraph_gui.core.vectors.profiles import MODEL_SPEC
texts = json.loads(sys.argv[1])
rows = ModelEmbedder(MODEL_SPEC).embed(texts)
assert "wordllama" not in sys.modules  # its import reconfigures logging; we read its files
from tokenizers import Tokenizer
from wordllama import WordLlamaInference
root = model._package_root()
tokenizer = Tokenizer.from_file(str(root.joinpath(*model._TOKENIZER)))
reference = WordLlamaInference(model._cache.get().weights, tokenizer).embed(texts, norm=True)
sys.stdout.write(json.dumps([rows.tobytes().hex(), float(abs(reference - rows).max())]))
"""


def test_offline_in_another_process_and_wordllamas_own_embedding() -> None:
    texts = [q for pair in ENGLISH + CHINESE for q in pair] + ["word " * 2000]
    done = subprocess.run(
        [sys.executable, "-c", OFFLINE_SCRIPT, json.dumps(texts)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={
            "PYTHONHASHSEED": "7",
            "PATH": "",
            "HF_HUB_OFFLINE": "1",
            "HOME": str(ROOT / "nohome"),
        },
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows_hex, gap = json.loads(done.stdout)
    assert bytes.fromhex(rows_hex) == EMBED(texts).tobytes()  # the same in every process
    assert gap < 1e-5  # WordLlama's own padded mean-pool, normalised
