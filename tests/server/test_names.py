"""Names in a room are told apart: a join or a rename to a name another seat goes by (case and
spaces aside) is refused with ``room/name_taken`` and changes nothing."""

from __future__ import annotations

import asyncio

from .harness import Client, ServerProcess, create_room, http, join_room


def test_a_join_with_a_name_taken_is_refused(server: ServerProcess) -> None:
    ticket = create_room(server.base, "Bo")
    code = ticket["code"]
    for name in ("Bo", "bo", "  BO ", "B o"):
        status, body = http(server.base, "POST", f"/api/rooms/{code}/join", {"name": name})
        assert status == 409, (name, body)
        assert body["code"] == "room/name_taken" and body["message"]
    room = http(server.base, "GET", f"/api/rooms/{code}")[1]
    assert [s["name"] for s in room["seats"]] == ["Bo"]
    join_room(server.base, code, "Bob")  # another name is welcome


def test_computer_players_take_a_name_nobody_has(server: ServerProcess) -> None:
    ticket = create_room(server.base, "Robot 1", bots=2)
    room = http(server.base, "GET", f"/api/rooms/{ticket['code']}")[1]
    names = [s["name"] for s in room["seats"]]
    assert names[0] == "Robot 1" and len(set(names)) == 3


def test_a_rename_to_a_name_taken_is_refused(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(server.base, "Ann")
        ann = Client(server.ws_base, ticket)
        bo = Client(server.ws_base, join_room(server.base, ticket["code"], "Bo"))
        await ann.connect()
        await bo.connect()
        answer = await bo.command("set_profile", name=" ANN")
        assert answer["type"] == "error" and answer["code"] == "room/name_taken", answer
        assert (await bo.command("set_profile", name="bo "))["type"] == "ack"  # her own name
        await ann.drain()
        assert ann.room is not None
        assert sorted(s["name"] for s in ann.room["seats"]) == ["Ann", "bo"]
        await ann.close()
        await bo.close()

    asyncio.run(main())
