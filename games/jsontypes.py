"""The one name for raw JSON as it is parsed from a request, a record or a file.

Raw JSON is validated where it enters (an action by ``Game.action_from_json``, a request by the
web's handlers); what crosses between packages after that is a typed value.
"""

from __future__ import annotations

from typing import Any, TypeAlias

#: A JSON object as parsed, before it is checked.
JSONObject: TypeAlias = dict[str, Any]
