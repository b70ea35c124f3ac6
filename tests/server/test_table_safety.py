"""Open tables stay pleasant: names that fail the word filter (six languages) are not listed,
a table reported by a few different clients leaves the list, and a kicked token stays out."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from dixit.server.moderation import offensive

from .harness import Client, Message, ServerProcess, create_room, http, join_room


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Behind a (pretend) proxy, so that each test client can be another address."""
    workdir: Path = tmp_path_factory.mktemp("proxied")
    proc = ServerProcess(database="memory://", workdir=workdir, extra=("--trust-proxy",))
    proc.start()
    yield proc
    proc.stop()


def listed(server: ServerProcess) -> dict[str, Message]:
    status, answer = http(server.base, "GET", "/api/tables")
    assert status == 200
    return {t["code"]: t for t in answer["tables"]}


def test_the_word_filter_reads_six_languages_and_whole_words_only() -> None:
    for name in ("Serata di merda", "PUTAIN de soirée", "kurwa mać", "Noche de mierda",
                 "Que merda!", "f u c k", "Sh1t night", "c4zz0 party"):  # fmt: skip
        if name == "f u c k":
            assert not offensive(name)  # letters apart are not a word
            continue
        assert offensive(name), name
    for name in ("Sussex night", "Scunthorpe", "Les chats de Mamie", "Gufi e lune",
                 "Sowy i księżyce", "Búhos y lunas", "Corujas e luas", "Owls & moons"):  # fmt: skip
        assert not offensive(name), name


def test_an_offensive_name_is_not_listed_and_reports_hide_a_table(proxied: ServerProcess) -> None:
    async def main() -> None:
        rude = create_room(proxied.base, "Ann", public=True, table_name="Serata di merda")
        also_rude = create_room(proxied.base, "Merde", public=True)  # the host's name is shown
        fine = create_room(proxied.base, "Bo", public=True, table_name="Owls & moons")
        clients = [Client(proxied.ws_base, t) for t in (rude, also_rude, fine)]
        for client in clients:
            await client.connect()
        try:
            tables = listed(proxied)
            assert fine["code"] in tables and tables[fine["code"]]["name"] == "Owls & moons"
            assert rude["code"] not in tables and also_rude["code"] not in tables

            def report(code: str, address: str) -> tuple[int, Message]:
                path = f"/api/tables/{code}/report"
                return http(proxied.base, "POST", path, {}, {"X-Forwarded-For": address})

            # One client reporting again and again counts once.
            for _ in range(5):
                assert report(fine["code"], "10.0.0.1") == (200, {"reported": True})
            assert fine["code"] in listed(proxied)
            assert report(fine["code"], "10.0.0.2")[0] == 200
            assert fine["code"] in listed(proxied)
            assert report(fine["code"], "10.0.0.3")[0] == 200
            assert fine["code"] not in listed(proxied)  # three clients: hidden
            status, body = report("ZZZZZZ", "10.0.0.4")
            assert (status, body["code"]) == (404, "room/not_found")
            status, body = report(rude["code"], "10.0.0.4")  # not an open table
            assert status == 404
        finally:
            for client in clients:
                await client.close()

    asyncio.run(main())


def test_a_kicked_token_stays_out_of_the_room(server: ServerProcess) -> None:
    async def main() -> None:
        ann_ticket = create_room(server.base, "Ann")
        bo_ticket = join_room(server.base, ann_ticket["code"], "Bo")
        ann, bo = Client(server.ws_base, ann_ticket), Client(server.ws_base, bo_ticket)
        await ann.connect()
        await bo.connect()
        assert (await ann.command("kick", seat=bo_ticket["seat"]))["type"] == "ack"
        await bo.close()
        again = Client(server.ws_base, bo_ticket)
        answer = await again.connect()
        assert (answer["type"], answer["code"]) == ("closed", "auth/bad_token")
        await again.close()
        await ann.close()

    asyncio.run(main())
