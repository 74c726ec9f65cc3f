"""The pydantic side of fedtool.kernel.validation: the base of every model read from a user's
file and the field types the files share. Imported the first time a module asks
fedtool.kernel.validation for one of them, so a command that validates nothing with pydantic
never imports it (issue 18)."""

from __future__ import annotations

import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from .values import _mail_address, _one_line_name, duration, positive_duration, sensible_number, whole_number, whole_number_only


class FileModel(BaseModel):
    """Base for every model read from a user's file: unknown fields are refused (typos)."""

    # defer_build: a model's validator is built the first time it validates, not at import,
    # so a command pays only for the files it reads (issue 18)
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, defer_build=True)


Name = Annotated[str, Field(min_length=1, max_length=80), AfterValidator(_one_line_name)]

MailAddress = Annotated[str, BeforeValidator(_mail_address)]

Duration = Annotated[datetime.timedelta, BeforeValidator(duration)]
PositiveDuration = Annotated[datetime.timedelta, BeforeValidator(positive_duration)]


class OwnerModel(FileModel):
    """The player who owns a wrestler: mail goes to this address."""

    name: Name
    email: MailAddress


# A whole number in a user's file: never a yes/no value (pydantic's int reads `true` as 1),
# a decimal number (10.0) or text ('10')
Whole = Annotated[int, BeforeValidator(whole_number_only)]
TextOrWhole = Annotated[str | int, BeforeValidator(whole_number)]  # a grid's letter or number, a range: one message for `true`

# A sheet number: anything a message can still print; the rules judge the rest
Points = Annotated[int, BeforeValidator(whole_number_only), AfterValidator(sensible_number)]
