"""Real English texts shipped with the package, their excerpts of a given token length and their
numbers of distinct tokens.

Each text is public domain and at least 512 tokens long for every model of
:data:`attnspec.real.models.MODELS`; ``texts/README.md`` gives the sources.
"""

from __future__ import annotations

import functools
from importlib.resources import files

from attnspec.core import validate
from attnspec.real.models import get_model

TEXT_NAMES: tuple[str, ...] = ("declaration", "lincoln", "darwin", "austen")
"""Names of the shipped texts: the Declaration of Independence (1776), Lincoln's Second
Inaugural Address (1865), the Introduction of Darwin's *On the Origin of Species* (1859) and
Chapter 1 of Austen's *Pride and Prejudice* (1813)."""


def read_text(name: str) -> str:
    """The full text of a shipped document.

    Parameters
    ----------
    name : str
        One of :data:`TEXT_NAMES`.

    Returns
    -------
    str
        The text, paragraphs separated by blank lines.

    Raises
    ------
    attnspec.core.errors.InvalidInput
        If ``name`` is not in :data:`TEXT_NAMES`.
    """
    validate.choice("text", name, TEXT_NAMES)
    return files("attnspec.real").joinpath(f"texts/{name}.txt").read_text(encoding="utf-8")


def excerpt(name: str, model: str, n_tokens: int) -> str:
    """The beginning of a text that a model reads as its first ``n_tokens`` tokens.

    It ends with the last character of the last kept token. It is meant for display: to compute on
    exactly these tokens, pass the full text and ``max_tokens=n_tokens`` to
    :func:`~attnspec.real.models.attention_maps`. (Re-tokenizing the excerpt gives the same tokens
    except when it ends inside a run of blank lines, which SmolLM's tokenizer splits differently at
    the end of a text.)

    Parameters
    ----------
    name : str
        One of :data:`TEXT_NAMES`.
    model : str
        Registry name of the model whose tokenizer counts the tokens.
    n_tokens : int
        Number of tokens, special tokens included, from 2 to the model's ``max_tokens``.

    Returns
    -------
    str
        The excerpt.
    """
    text = read_text(name)
    encoding = get_model(model).encode(text, n_tokens)
    return text[: max(end for _, end in encoding.offsets)]


def distinct_tokens(name: str, model: str, n: int) -> int:
    """Number of distinct token ids among the first ``n`` tokens of a shipped text as ``model``
    reads it: the distinct rows of its embedding layer's token matrix when the embedding has no
    position term (a repeated token repeats its row)."""
    return len(set(_token_ids(name, model)[:n]))


@functools.cache
def _token_ids(name: str, model: str) -> tuple[int, ...]:
    info = get_model(model)
    return tuple(info.encode(read_text(name), info.max_tokens).ids)
