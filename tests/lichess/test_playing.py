"""The steps both Lichess players take around the API client (`lichess/playing.py`),
against the stand-in Lichess on 127.0.0.1: signing in through a rate limit, a server that
fails (tried again only by a patient player) and a refused token (final for both)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from reedboard.lichess import playing
from reedboard.lichess.api import JsonObject, LichessApi, LichessError

from tests.host.lichess_standin import StandIn

TOKEN = "lip_secretStandInToken42"


def _sign_in(
    lichess: StandIn,
    *,
    token: str = TOKEN,
    patient: bool = False,
    stopped: Callable[[], bool] = lambda: False,
) -> tuple[JsonObject | None, list[str]]:
    told: list[str] = []

    async def run() -> JsonObject | None:
        # A 429's pause as short as Lichess's header allows: waited out, not timed.
        api = LichessApi(lichess.url, token, rate_limit_s=0.01)
        try:
            return await playing.sign_in(api, told.append, patient=patient, stopped=stopped)
        finally:
            await api.close()

    return asyncio.run(run()), told


def test_a_rate_limit_is_told_and_waited_out() -> None:
    with StandIn(TOKEN) as lichess:
        lichess.refuse_next = {"account": [429]}
        lichess.retry_after = "0"
        account, told = _sign_in(lichess)
    assert account is not None and account["username"]
    assert len(told) == 1 and "429" in told[0], told
    assert lichess.requests["account"] == 2


def test_a_failing_server_is_tried_again_only_by_a_patient_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(playing, "SIGN_IN_AGAIN_S", 0.0)
    with StandIn(TOKEN) as lichess:
        lichess.refuse_next = {"account": [503]}
        with pytest.raises(LichessError) as failed:
            _sign_in(lichess)
        assert failed.value.status == 503
        lichess.refuse_next = {"account": [503]}
        account, told = _sign_in(lichess, patient=True)
    assert account is not None
    assert len(told) == 1 and told[0].endswith("; trying again"), told


def test_a_refused_token_is_final_even_for_a_patient_player() -> None:
    with StandIn(TOKEN) as lichess:
        with pytest.raises(LichessError) as refused:
            _sign_in(lichess, token="lip_notTheRightOne", patient=True)
        assert lichess.requests["account"] == 1
    assert refused.value.status == 401


def test_a_player_asked_to_stop_does_not_sign_in() -> None:
    with StandIn(TOKEN) as lichess:
        account, told = _sign_in(lichess, patient=True, stopped=lambda: True)
        assert "account" not in lichess.requests
    assert account is None and told == []
