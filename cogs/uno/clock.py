"""The bot's timers: `loop.call_at` without a context copied per handle."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from typing import Any

# A timer's callback runs in this one context instead of a copy of the arming code's
# (asyncio copies it for every handle: a Context, and the language set while arming,
# kept alive as long as the handle, thousands of objects for the collector to scan).
# The callbacks set no context variable; what they start speaks its own language.
_TIMER_CONTEXT = contextvars.Context()


def call_at(when: float, callback: Callable[..., object], *args: Any) -> asyncio.TimerHandle:
    """`loop.call_at` for the bot's timers, sharing one context."""
    loop = asyncio.get_running_loop()
    return loop.call_at(when, callback, *args, context=_TIMER_CONTEXT)
