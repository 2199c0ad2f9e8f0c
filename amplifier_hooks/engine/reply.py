"""`Reply`: an answer, with the work that is left once it has been sent.

Every layer a call goes through (a `Coordinator`, a host's sessions, a server's bundle
sessions) hands back the same shape, as Starlette's ``Response(background=...)`` does: the
answer the caller waits for, and the work that may follow it (observers told, a session
released). A server sends the answer, then awaits `Reply.finish`; a caller with nothing to
send in between awaits `Reply.finish` at once. Either way the background work runs once,
however many roads await it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

__all__ = ["Background", "Reply"]

T = TypeVar("T")
U = TypeVar("U")

Background = Callable[[], Awaitable[None]]
"""Work left once an answer is known: awaited with no arguments; never given a result."""


class Reply(Generic[T]):
    """``answer``, and ``background``: what is left to do once it is sent.

    Await `finish` once, whatever happens to the answer (a layer may hold a session busy
    until then); only the first await runs the background work, later ones return at
    once, and work that raised is not tried again.
    """

    __slots__ = ("_background", "answer")

    def __init__(self, answer: T, background: Background | None = None) -> None:
        self.answer = answer
        self._background = background

    @property
    def pending(self) -> bool:
        """True while background work is left to run (no finish has begun)."""
        return self._background is not None

    async def finish(self) -> T:
        """Run the background work (the first await only) and return the answer."""
        work = self._background
        if work is not None:
            self._background = None
            await work()
        return self.answer

    def with_answer(self, answer: U) -> Reply[U]:
        """A reply of ``answer`` that takes over this one's background work: a layer that
        translates the answer (an outcome into a host's JSON) keeps what is left of it."""
        work = self._background
        self._background = None
        return Reply(answer, work)

    def then(self, after: Background) -> Reply[T]:
        """This reply, with ``after`` run once its own background work is over (also when
        that work raised): the way a layer adds its own cleanup to a lower one's reply."""
        inner = self._background
        self._background = None  # the new reply owns it now

        async def both() -> None:
            try:
                if inner is not None:
                    await inner()
            finally:
                await after()

        return Reply(self.answer, both)

    def __repr__(self) -> str:
        pending = "" if self._background is None else ", background pending"
        return f"Reply({self.answer!r}{pending})"
