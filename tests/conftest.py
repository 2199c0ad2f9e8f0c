"""Fixtures for the tests of the scripted model stand-ins (test_*_api.py,
test_chat_completions.py): a client that talks to them over loopback as a CLI would."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session
