"""Clicks the Discord client would never send: forged ids, values, channels and servers."""

from __future__ import annotations

from typing import Any

from playground import Channel, Emulator, InteractionType, Message, Outcome, User


async def forge(
    emu: Emulator,
    user: User,
    channel: Channel,
    message: Message,
    custom_id: Any,
    values: list[Any] | None = None,
) -> Outcome:
    """Send a component interaction as given, whatever the message really carries."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        data = {**data, "component_type": 3, "values": values}
    interaction = emu.world.create_interaction(
        type=InteractionType.MESSAGE_COMPONENT,
        user=user,
        channel=channel,
        data=data,
        name=str(custom_id)[:100],
        message=message,
    )
    outcome = Outcome(emu, interaction)
    await outcome.wait_response()
    return outcome


def private_text(outcome: Outcome) -> str:
    message = outcome.message
    assert message is not None
    assert message.ephemeral
    return str(message.text())
