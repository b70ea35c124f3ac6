"""Open tables: GET /api/tables lists public rooms waiting for players, never a private one."""

from __future__ import annotations

import asyncio

from .harness import Client, Message, ServerProcess, create_room, http, join_room


def tables(server: ServerProcess) -> dict[str, Message]:
    status, answer = http(server.base, "GET", "/api/tables")
    assert status == 200, answer
    return {t["code"]: t for t in answer["tables"]}


def test_only_public_rooms_waiting_with_free_seats_are_listed(server: ServerProcess) -> None:
    async def main() -> None:
        private = create_room(server.base, "Pia", first_storyteller="host")
        public = create_room(
            server.base,
            "Ann",
            public=True,
            language="it",
            edition="2021",
            max_players=4,
            first_storyteller="host",
        )
        code = public["code"]
        assert code not in tables(server)  # nobody is at the table yet
        ann, pia = Client(server.ws_base, public), Client(server.ws_base, private)
        await ann.connect()
        await pia.connect()
        listed = tables(server)
        assert private["code"] not in listed
        assert listed[code] == {
            "code": code,
            "name": "Ann",
            "edition": "2021",
            "language": "it",
            "seats_taken": 1,
            "seats_free": 3,
        }
        # Anyone joins by the listed code; the free seats go down; a full table leaves the list.
        bo = join_room(server.base, code, "Bo")
        assert tables(server)[code]["seats_free"] == 2
        join_room(server.base, code, "Cy")
        assert tables(server)[code]["seats_free"] == 1
        assert (await ann.command("add_bot"))["type"] == "ack"
        assert code not in tables(server)
        assert (await ann.command("kick", seat="p4"))["type"] == "ack"
        assert tables(server)[code]["seats_free"] == 1
        # The host names the table, then makes it private, then public again.
        settings = {"edition": "2021", "max_players": 4, "first_storyteller": "host"}
        named = {
            **settings,
            "public": True,
            "table_name": "  Owls & <b>moons</b> ",
            "language": "fr",
        }
        assert (await ann.command("update_settings", settings=named))["type"] == "ack"
        assert tables(server)[code]["name"] == "Owls & <b>moons</b>"
        assert tables(server)[code]["language"] == "fr"
        assert (await ann.command("update_settings", settings=settings))["type"] == "ack"
        assert code not in tables(server)
        answer = await ann.command("update_settings", settings={**settings, "public": True})
        assert answer["type"] == "ack" and tables(server)[code]["name"] == "Ann"
        # A game being played is not waiting: off the list until the rematch's lobby.
        bo_client = Client(server.ws_base, bo)
        await bo_client.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        assert code not in tables(server)
        assert (await ann.command("end_game"))["type"] == "ack"
        await ann.drain(0.3)
        assert ann.room is not None and ann.room["status"] == "over"
        assert code not in tables(server)
        assert (await ann.command("rematch"))["type"] == "ack"
        assert tables(server)[code]["seats_free"] == 1
        # When every person has gone offline the table is not waiting for anyone.
        await ann.close()
        await bo_client.close()
        await asyncio.sleep(0.2)
        assert code not in tables(server)
        await pia.close()

    asyncio.run(main())


def test_bad_listing_settings_are_refused(server: ServerProcess) -> None:
    for settings in ({"language": "xx"}, {"table_name": "n" * 41}, {"public": "maybe"}):
        status, answer = http(
            server.base, "POST", "/api/rooms", {"name": "Ann", "settings": settings}
        )
        assert status == 422, (settings, answer)
