"""The verdict of a solve."""

import enum


class Status(str, enum.Enum):
    """SAT (a verified board exists), UNSAT (proven impossible) or UNKNOWN (no answer)."""

    SAT = "SAT"
    UNSAT = "UNSAT"
    UNKNOWN = "UNKNOWN"

    def __str__(self) -> str:
        return self.value
