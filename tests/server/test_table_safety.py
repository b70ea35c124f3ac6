"""Open tables stay pleasant: names that fail the word filter (six languages) are not listed,
a table reported by a few different clients leaves the list, and a kicked token stays out."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from dixit.protocol import messages as m
from dixit.server import lobby
from dixit.server.errors import ServerError
from dixit.server.moderation import offensive
from dixit.server.records import RoomRecordData

from .harness import Client, Message, ServerProcess, create_room, http, join_room, seats


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


def test_reports_through_several_processes_add_up(tmp_path: Path) -> None:
    """Two processes on one store: the table is listed by the process its host is connected
    to; reports reaching either count together (the store keeps them), and both hide it."""
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    a, b = (
        ServerProcess(database=database, workdir=tmp_path / name, extra=("--trust-proxy",))
        for name in ("a", "b")
    )
    for proc in (a, b):
        proc.workdir.mkdir()
        proc.start()

    def report(proc: ServerProcess, code: str, address: str) -> int:
        path = f"/api/tables/{code}/report"
        return http(proc.base, "POST", path, {}, {"X-Forwarded-For": address})[0]

    async def main() -> None:
        ticket = create_room(a.base, "Ann", public=True, table_name="Owls & moons")
        code = ticket["code"]
        host = Client(a.ws_base, ticket)
        await host.connect()
        try:
            assert code in listed(a)
            assert report(a, code, "10.0.0.1") == 200
            assert report(b, code, "10.0.0.2") == 200  # B holds no such room: read from the store
            assert report(b, code, "10.0.0.2") == 200  # the same client again: still two
            assert code in listed(a)
            assert report(b, code, "10.0.0.3") == 200  # the third client, through B
            for _ in range(100):  # A reads the store's reports again within two seconds
                if code not in listed(a):
                    break
                await asyncio.sleep(0.1)
            assert code not in listed(a)
            private = create_room(a.base, "Bo")
            assert report(b, private["code"], "10.0.0.4") == 404  # no open table
        finally:
            await host.close()

    try:
        asyncio.run(main())
    finally:
        a.stop()
        b.stop()


def test_a_kicked_token_stays_out_of_the_room(server: ServerProcess) -> None:
    """Kicked in the lobby: the token's hello, and a join or a watch that shows it (the
    browser's X-Dixit-Seats), are refused with room/kicked and change nothing. A browser that
    shows no token (a fresh one) is a newcomer: it may join (docs/deploy.md)."""

    async def main() -> None:
        ann_ticket = create_room(server.base, "Ann")
        code = ann_ticket["code"]
        bo_ticket = join_room(server.base, code, "Bo")
        ann, bo = Client(server.ws_base, ann_ticket), Client(server.ws_base, bo_ticket)
        await ann.connect()
        await bo.connect()
        assert (await ann.command("kick", seat=bo_ticket["seat"]))["type"] == "ack"
        await bo.close()
        again = Client(server.ws_base, bo_ticket)
        answer = await again.connect()
        assert (answer["type"], answer["code"]) == ("closed", "room/kicked")
        await again.close()
        shown = seats(bo_ticket)
        for path, body in (("join", {"name": "Bo again"}), ("spectate", {})):
            status, refused = http(server.base, "POST", f"/api/rooms/{code}/{path}", body, shown)
            assert (status, refused["code"]) == (403, "room/kicked"), path
        status, room = http(server.base, "GET", f"/api/rooms/{code}")
        assert [s["name"] for s in room["seats"]] == ["Ann"] and status == 200
        other = create_room(server.base, "Cy")  # a kicked token counts in its own room only
        ok = http(server.base, "POST", f"/api/rooms/{other['code']}/join", {"name": "Bo"}, shown)
        assert ok[0] == 200
        assert join_room(server.base, code, "Dee")["seat"]  # a token shown for no seat: joins
        await ann.close()

    asyncio.run(main())


def test_a_token_kicked_during_a_game_cannot_watch_or_say_hello(server: ServerProcess) -> None:
    async def main() -> None:
        host_ticket = create_room(server.base, "Ann", bots=1)
        code = host_ticket["code"]
        bo_ticket = join_room(server.base, code, "Bo")
        host, bo = Client(server.ws_base, host_ticket), Client(server.ws_base, bo_ticket)
        await host.connect()
        await bo.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        assert (await host.command("kick", seat=bo_ticket["seat"]))["type"] == "ack"
        await bo.close()
        again = Client(server.ws_base, bo_ticket)
        answer = await again.connect()
        assert (answer["type"], answer["code"]) == ("closed", "room/kicked")
        await again.close()
        path = f"/api/rooms/{code}/spectate"
        status, refused = http(server.base, "POST", path, {}, seats(bo_ticket))
        assert (status, refused["code"]) == (403, "room/kicked")
        assert http(server.base, "POST", path, {})[0] == 200  # someone else may watch
        await host.close()

    asyncio.run(main())


def test_a_kick_is_kept_in_the_record_and_bounded() -> None:
    data = RoomRecordData(code="BCDFGH", seed=1, settings=m.RoomSettings())
    for n in range(lobby.MAX_KICKED + 2):
        data, _ = lobby.add_person(data, "Ann" if n == 0 else f"P{n}", None, f"h{n}", 999)
    for seat in data.seats[1:]:
        data = lobby.kick(data, "p1", seat.id, "easy", ())
    assert len(data.kicked) == lobby.MAX_KICKED and data.kicked[-1] == f"h{lobby.MAX_KICKED + 1}"
    assert RoomRecordData.from_json(data.to_json()) == data
    assert lobby.refusal(data, data.kicked[0]) == "room/kicked"
    assert lobby.refusal(data, "h0") == "auth/bad_token"
    with pytest.raises(ServerError) as refused:
        lobby.add_spectator(data, "new", 10, held={data.kicked[3]})
    assert refused.value.code == "room/kicked"
