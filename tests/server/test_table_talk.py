"""Talking at the table over real sockets: chat lines and reactions, their limits, the host's
mute, plain text only, and never a card id."""

from __future__ import annotations

import asyncio
from pathlib import Path

from .harness import Client, Message, ServerProcess, create_room, http, join_room
from .test_pubsub import REDIS_URL
from .test_scaled_out import schema_url  # noqa: F401 - the fixture


async def seated(server: ServerProcess, *names: str, **settings: object) -> list[Client]:
    """A room with these people seated and connected (the first is the host) and a spectator."""
    ticket = create_room(server.base, names[0], **settings)
    tickets = [ticket] + [join_room(server.base, ticket["code"], n) for n in names[1:]]
    status, watcher = http(server.base, "POST", f"/api/rooms/{ticket['code']}/spectate")
    assert status == 200
    clients = [Client(server.ws_base, t) for t in [*tickets, watcher]]
    for client in clients:
        await client.connect()
    return clients


def chats(client: Client) -> list[Message]:
    return [m for m in client.inbox if m["type"] == "chat"]


async def heard(client: Client, kind: str) -> Message:
    """The last message of this kind received, waiting for one when none has come yet."""
    found = [m for m in client.inbox if m["type"] == kind]
    return found[-1] if found else await client.until(lambda m: m["type"] == kind)


async def close(clients: list[Client]) -> None:
    for client in clients:
        await client.close()


def test_lines_and_reactions_reach_everyone_as_plain_text(server: ServerProcess) -> None:
    async def main() -> None:
        ann, bo, tv = await seated(server, "Ann", "Bo")
        talk = await ann.until(lambda m: m["type"] != "room")  # right after the welcome
        assert talk == {"type": "talk", "v": 1, "lines": [], "muted": []}
        html = "<img src=x onerror=alert(1)>  <b>hi</b>\u0007\u202e\n there"
        answer = await bo.command("say", text=html)
        assert answer["type"] == "ack"
        for client in (ann, bo, tv):
            said = await heard(client, "chat")
            line = said["line"]
            # Markup stays as the characters typed; control characters go; spaces are one.
            assert line["text"] == "<img src=x onerror=alert(1)> <b>hi</b> there"
            assert line["seat"] == bo.seat and line["name"] == "Bo" and line["id"]
        assert (await ann.command("react", reaction="laugh"))["type"] == "ack"
        for client in (ann, bo, tv):
            reaction = await heard(client, "reaction")
            assert reaction["seat"] == ann.seat and reaction["reaction"] == "laugh"
        answer = await ann.command("react", reaction="poop")
        assert answer["type"] == "error" and answer["code"] == "command/malformed"
        answer = await tv.command("say", text="hello")
        assert answer["type"] == "error" and answer["code"] == "auth/spectator"
        # A resend of the same command is acknowledged again and said once.
        first = await bo.command("say", command_id="same", text="once")
        again = await bo.command("say", command_id="same", text="once")
        assert first["duplicate"] is False and again["duplicate"] is True
        await ann.drain(0.2)
        assert [c["line"]["text"] for c in chats(ann)][-1:] == ["once"]
        assert sum(c["line"]["text"] == "once" for c in chats(ann)) == 1
        # Someone arriving later reads the recent lines after the welcome.
        late = Client(server.ws_base, bo.ticket)
        await late.connect()
        talk = await late.until(lambda m: m["type"] == "talk")
        assert [line["text"] for line in talk["lines"]][-1] == "once"
        await close([ann, bo, tv, late])

    asyncio.run(main())


def test_length_and_rate_limits(server: ServerProcess) -> None:
    async def main() -> None:
        ann, bo, cy, tv = await seated(server, "Ann", "Bo", "Cy")
        answer = await ann.command("say", text="x" * 201)
        assert answer["type"] == "error" and answer["code"] == "chat/too_long"
        for blank in ("", "   ", "\u0000\u200b\u2066"):
            answer = await ann.command("say", text=blank)
            assert answer["type"] == "error" and answer["code"] == "chat/empty", blank
        assert (await ann.command("say", text="y" * 200))["type"] == "ack"
        # Bo: three lines at once, then one every two seconds.
        answers = [await bo.command("say", text=f"line {i}") for i in range(4)]
        assert [a["type"] for a in answers[:3]] == ["ack"] * 3
        assert answers[3]["code"] == "chat/rate"
        # Cy: four reactions at once, then one a second; lines have their own allowance.
        answers = [await cy.command("react", reaction="clap") for _ in range(5)]
        assert [a["type"] for a in answers[:4]] == ["ack"] * 4
        assert answers[4]["code"] == "chat/rate"
        assert (await cy.command("say", text="still here"))["type"] == "ack"
        await asyncio.sleep(2.1)
        assert (await bo.command("say", text="after a pause"))["type"] == "ack"
        await tv.drain(0.2)
        texts = [c["line"]["text"] for c in chats(tv)]
        assert "line 3" not in texts and "x" * 201 not in texts
        assert texts == ["y" * 200, "line 0", "line 1", "line 2", "still here", "after a pause"]
        await close([ann, bo, cy, tv])

    asyncio.run(main())


def test_no_card_id_is_ever_said(server: ServerProcess) -> None:
    async def main() -> None:
        ann, bo, cy, tv = await seated(server, "Ann", "Bo", "Cy", first_storyteller="host")
        slug = http(server.base, "GET", "/api/decks")[1]["decks"][0]["slug"]
        card = http(server.base, "GET", f"/api/decks/{slug}/cards")[1]["cards"][5]["id"]
        digest = card.rsplit("-", 1)[-1]
        spread = " ".join(digest[i : i + 2] for i in range(0, len(digest), 2))
        for text in (card, f"mine is {digest.upper()}!", f"psst {spread}", digest[:8]):
            answer = await bo.command("say", text=text)
            assert answer["type"] == "error" and answer["code"] == "chat/secret", text
        assert (await bo.command("say", text=f"{digest[:7]} is fine"))["type"] == "ack"
        # In a game: a card in the hand cannot be named either.
        assert (await ann.command("start_game"))["type"] == "ack"
        await cy.until(lambda m: m["type"] == "game")
        assert cy.view is not None
        answer = await cy.command("say", text=f"vote {cy.view['hand'][0]} please")
        assert answer["code"] == "chat/secret"
        await tv.drain(0.2)
        assert [c["line"]["text"] for c in chats(tv)] == [f"{digest[:7]} is fine"]
        await close([ann, bo, cy, tv])

    asyncio.run(main())


def test_the_host_mutes_and_unmutes_a_seat(server: ServerProcess) -> None:
    async def main() -> None:
        ann, bo, cy, tv = await seated(server, "Ann", "Bo", "Cy")
        assert (await bo.command("mute", seat=cy.seat, muted=True))["code"] == "room/not_host"
        assert (await ann.command("mute", seat=ann.seat, muted=True))["code"] == "room/unknown_seat"
        assert (await ann.command("mute", seat="p99", muted=True))["code"] == "room/unknown_seat"
        assert (await ann.command("mute", seat=bo.seat, muted=True))["type"] == "ack"
        for client in (ann, bo, cy, tv):
            await client.drain(0.1)
            assert (await heard(client, "talk"))["muted"] == [bo.seat]
        assert (await bo.command("say", text="hey"))["code"] == "chat/muted"
        assert (await bo.command("react", reaction="love"))["code"] == "chat/muted"
        assert (await cy.command("say", text="I can talk"))["type"] == "ack"
        assert (await ann.command("mute", seat=bo.seat, muted=False))["type"] == "ack"
        await bo.drain(0.1)
        assert (await heard(bo, "talk"))["muted"] == []
        assert (await bo.command("say", text="back"))["type"] == "ack"
        await tv.drain(0.2)
        assert [c["line"]["text"] for c in chats(tv)] == ["I can talk", "back"]
        assert not [m for m in tv.inbox if m["type"] == "reaction"]
        await close([ann, bo, cy, tv])

    asyncio.run(main())


def test_two_processes_hear_each_other(schema_url: str, tmp_path: Path) -> None:  # noqa: F811
    """Ann on one server process, Bo on another: lines, reactions and mutes cross over."""
    extra = ("--pubsub", REDIS_URL)
    a = ServerProcess(database=schema_url, workdir=tmp_path, extra=extra)
    b = ServerProcess(database=schema_url, workdir=tmp_path, extra=extra)
    a.start()
    b.start()

    async def main() -> None:
        ticket = create_room(a.base, "Ann")
        ann = Client(a.ws_base, ticket)
        bo = Client(b.ws_base, join_room(b.base, ticket["code"], "Bo"))
        await ann.connect()
        await bo.connect()
        assert (await ann.command("say", text="from A"))["type"] == "ack"
        assert (await bo.until(lambda m: m["type"] == "chat"))["line"]["text"] == "from A"
        assert (await bo.command("say", text="from B"))["type"] == "ack"
        assert (await bo.command("react", reaction="wow"))["type"] == "ack"
        heard = await ann.until(lambda m: m["type"] == "chat")
        assert heard["line"]["text"] == "from B" and heard["line"]["seat"] == bo.seat
        assert (await ann.until(lambda m: m["type"] == "reaction"))["reaction"] == "wow"
        # The host on A mutes Bo on B: B refuses Bo's lines.
        assert (await ann.command("mute", seat=bo.seat, muted=True))["type"] == "ack"
        await bo.until(lambda m: m["type"] == "talk" and m["muted"] == [bo.seat])
        assert (await bo.command("say", text="hush"))["code"] == "chat/muted"
        # Someone arriving on B reads the lines said on both.
        late = Client(b.ws_base, ticket)
        await late.connect()
        talk = await late.until(lambda m: m["type"] == "talk")
        assert [line["text"] for line in talk["lines"]] == ["from A", "from B"]
        ids = [line["id"] for line in talk["lines"]]
        assert len(set(ids)) == 2
        await close([ann, bo, late])

    try:
        asyncio.run(main())
    finally:
        a.stop()
        b.stop()
