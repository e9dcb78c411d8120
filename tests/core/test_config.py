"""Config and Parameter: every invalid input is refused with a message naming the parameter,
the value and the valid range."""

from __future__ import annotations

import dataclasses
import math

import pytest

import attnspec.core.config as config
from attnspec.core.config import Config, check_memory, trial_memory_bytes
from attnspec.core.kinds import PARAMETERS
from attnspec.core.parameter import Parameter


def test_defaults_are_valid_and_typed():
    cfg = Config()
    for field in dataclasses.fields(Config):
        p = PARAMETERS[field.name]  # every Config field is a declared parameter
        assert getattr(cfg, field.name) == p.default
        assert p.check(p.default) == p.default
    assert cfg.hist_range == (cfg.hist_min, cfg.hist_max)


def test_int_is_accepted_for_float_and_converted():
    cfg = Config(d=64, beta=1, c_poly=3)
    assert isinstance(cfg.beta, float) and cfg.beta == 1.0
    assert isinstance(cfg.c_poly, float)


def test_config_is_frozen():
    cfg = Config(d=64)
    with pytest.raises(AttributeError):
        cfg.d = 128  # type: ignore[misc]


@pytest.mark.parametrize(
    "kwargs, fragments",
    [
        ({"d": 1}, ["d=1", ">= 2", "<= 20000"]),
        ({"d": 0}, ["d=0", ">= 2"]),
        ({"d": 2.5}, ["d=2.5", "int", ">= 2", "<= 20000"]),
        ({"d": "100"}, ["d='100'", "int", ">= 2"]),
        ({"d": True}, ["d=True", "int"]),
        ({"beta": math.nan}, ["beta=nan", "finite", ">= 0", "<= 18.8"]),
        ({"beta": math.inf}, ["beta=inf", "finite", ">= 0"]),
        ({"beta": -math.inf}, ["beta=-inf", "finite"]),
        ({"beta": -1.0}, ["beta=-1.0 ", ">= 0", "<= 18.8"]),
        ({"beta": 30.0}, ["beta=30.0 ", "<= 18.8", "finite float"]),
        ({"beta": 18.8000001}, ["beta=18.8000001 is out of range"]),
        ({"trials": 0}, ["trials=0", ">= 1"]),
        ({"trials": -3}, ["trials=-3", ">= 1"]),
        ({"seed": -1}, ["seed=-1", ">= 0"]),
        ({"d": 10, "remove_top_k": 10}, ["remove_top_k=10", "< d = 10"]),
        ({"d": 10, "remove_top_k": 11}, ["remove_top_k=11", "< d = 10"]),
        ({"remove_top_k": -1}, ["remove_top_k=-1", ">= 0"]),
        ({"c_poly": 0.0}, ["c_poly=0", "> 0"]),
        ({"c_poly": -2.0}, ["c_poly=-2", "> 0"]),
        ({"hist_min": 8.0, "hist_max": 8.0}, ["hist_min=8.0 ", "< hist_max = 8.0"]),
        ({"hist_min": 5.0, "hist_max": 2.0}, ["hist_min=5.0 ", "< hist_max = 2.0"]),
        ({"hist_max": 0.0}, ["hist_max=0", "> 0"]),
        ({"hist_bins": 0}, ["hist_bins=0", ">= 1"]),
        ({"mc_samples": 10}, ["mc_samples=10", ">= 100"]),
    ],
)
def test_invalid_config_message(kwargs, fragments):
    kwargs = {"d": 64, **kwargs}
    with pytest.raises(ValueError) as err:
        Config(**kwargs)
    message = str(err.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_boundaries_are_inclusive_where_stated():
    Config(d=2, remove_top_k=1)
    Config(d=64, beta=0.0)
    Config(d=64, beta=PARAMETERS["beta"].high)
    Config(d=64, remove_top_k=63)
    Config(d=64, hist_min=0.0, hist_max=1e-9)


def test_memory_refusal(monkeypatch):
    monkeypatch.setattr(config, "available_memory_bytes", lambda: 2**20)
    with pytest.raises(ValueError) as err:
        Config(d=1000)
    message = str(err.value)
    assert "d=1000" in message and "GiB" in message
    with pytest.raises(ValueError, match="GiB"):
        check_memory(1000)


def test_memory_check_passes_when_it_fits(monkeypatch):
    monkeypatch.setattr(config, "available_memory_bytes", lambda: trial_memory_bytes(500))
    Config(d=500)
    with pytest.raises(ValueError, match="GiB"):
        Config(d=501)


def test_trial_memory_model():
    assert trial_memory_bytes(1000) == config.ARRAYS_ALIVE_PER_TRIAL * 8 * 1000**2
    assert config.available_memory_bytes() > 0


@pytest.mark.parametrize(
    "name, text, expected",
    [
        ("d", "64", 64),
        ("d", " 64 ", 64),
        ("d", "+64", 64),
        ("beta", "0.5", 0.5),
        ("beta", "1", 1.0),
        ("beta", "1e-1", 0.1),
        ("c_poly", "2", 2.0),
    ],
)
def test_parse_valid(name, text, expected):
    value = PARAMETERS[name].parse(text)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize(
    "name, text",
    [
        ("d", "abc"),
        ("d", "2.5"),
        ("d", "1e3"),
        ("d", ""),
        ("d", "1"),
        ("d", "0x40"),
        ("d", "nan"),
        ("beta", "abc"),
        ("beta", "nan"),
        ("beta", "inf"),
        ("beta", "-1"),
        ("beta", "1e400"),
        ("beta", ""),
        ("trials", "0"),
        ("trials", "three"),
        ("c_poly", "0"),
        ("seed", "-5"),
    ],
)
def test_parse_invalid(name, text):
    p = PARAMETERS[name]
    with pytest.raises(ValueError) as err:
        p.parse(text)
    message = str(err.value)
    assert message.startswith(f"{name}=")
    assert p.range_text in message, message


def test_list_parameter():
    p = Parameter("ds", list, [64], "sizes", low=2, high=100, item=int)
    assert p.type_name == "list[int]"
    assert p.range_text == "each >= 2 and <= 100"
    assert p.parse("8,16, 32") == [8, 16, 32]
    for bad in ("8,x", "", "8,1", "8,101"):
        with pytest.raises(ValueError) as err:
            p.parse(bad)
        assert str(err.value).startswith("ds="), str(err.value)
