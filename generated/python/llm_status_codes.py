# Generated from the status-code catalog (the YAML files in catalog/). Do not edit: run `make generate`.
"""LLMStatusCode: the status codes of CANN LLM-DataDist, with their documentation.

A drop-in for upstream's ``LLMStatusCode``: the same members, with the same
names, values and order, as an ``IntEnum``. Each member also knows what the
documentation says about it, per edition and language::

    LLMStatusCode.LLM_FAILED.recoverable()      # False
    LLMStatusCode.LLM_FAILED.solution("en")      # as the newest page listing it shows it
    lookup("0xFFFFFFFF") is LLMStatusCode.LLM_FAILED

Standard library only, Python 3.9 or newer: vendor this one file.
"""
import re
from difflib import get_close_matches
from enum import IntEnum

__all__ = (
    "EDITIONS",
    "LANGUAGES",
    "UNKNOWN",
    "LLMException",
    "LLMStatusCode",
    "code_2_status",
    "lookup",
)

#: Every documentation edition, oldest first.
EDITIONS = (
    "8.0.RC3",
    "8.0.0",
    "8.2.RC1",
    "8.5.0-v1",
    "9.0.0-v1",
    "9.0.0-v2",
)

#: The languages of the texts.
LANGUAGES = ("zh", "en")


class _Unknown(object):
    """What the catalog records as not known: falsy, and never equal to False."""

    __slots__ = ()
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self):
        return "UNKNOWN"

    def __bool__(self):
        return False

    def __reduce__(self):
        return (_Unknown, ())


#: Returned by recoverable() where the recoverability is not known.
UNKNOWN = _Unknown()


class LLMStatusCode(IntEnum):
    """The status codes of CANN LLM-DataDist, as upstream's ``LLMStatusCode``."""

    LLM_SUCCESS = 0x00000000
    LLM_FAILED = 0xFFFFFFFF
    LLM_WAIT_PROCESS_TIMEOUT = 0x5010B001
    LLM_KV_CACHE_NOT_EXIST = 0x5010B002
    LLM_REPEAT_REQUEST = 0x5010B003
    LLM_REQUEST_ALREADY_COMPLETED = 0x5010B004
    LLM_PARAM_INVALID = 0x5010B005
    LLM_ENGINE_FINALIZED = 0x5010B006
    LLM_NOT_YET_LINK = 0x5010B007
    LLM_ALREADY_LINK = 0x5010B008
    LLM_LINK_FAILED = 0x5010B009
    LLM_UNLINK_FAILED = 0x5010B00A
    LLM_NOTIFY_PROMPT_UNLINK_FAILED = 0x5010B00B
    LLM_CLUSTER_NUM_EXCEED_LIMIT = 0x5010B00C
    LLM_PROCESSING_LINK = 0x5010B00D
    LLM_DEVICE_OUT_OF_MEMORY = 0x5010B00E
    LLM_PREFIX_ALREADY_EXIST = 0x5010B00F
    LLM_PREFIX_NOT_EXIST = 0x5010B010
    LLM_SEQ_LENOVERLIMIT = 0x5010B011
    LLM_NO_FREE_BLOCK = 0x5010B012
    LLM_BLOCKS_OUT_OF_MEMORY = 0x5010B013
    LLM_EXIST_LINK = 0x5010B018
    LLM_FEATURE_NOT_ENABLED = 0x5010B019
    LLM_TIMEOUT = 0x5010B01A
    LLM_LINK_BUSY = 0x5010B01B
    LLM_OUT_OF_MEMORY = 0x5010B01C
    LLM_DEVICE_MEM_ERROR = 507053
    LLM_SUSPECT_REMOTE_ERROR = 507057
    LLM_UNKNOWN_ERROR = -1

    def __str__(self):
        return "%s.%s" % (type(self).__name__, self.name)

    def __format__(self, format_spec):
        # The same on every Python: str() unless a number format is asked for.
        return format(int(self), format_spec) if format_spec else str(self)

    @property
    def c_name(self):
        """The C/C++ name, or None for a member that exists only in Python."""
        return _C_NAMES.get(self.name)

    @property
    def editions(self):
        """Ids of the editions whose page lists this code, oldest first."""
        rows = _ROWS[self.name]
        return tuple(edition for edition in EDITIONS if edition in rows)

    def recoverable(self, edition=None):
        """True (是), False (否), None (无, not applicable) or UNKNOWN."""
        return _ROWS[self.name].get(_edition_for(self, edition), UNKNOWN)

    def meaning(self, lang="zh", edition=None):
        """The meaning as the edition's page shows it, or None where not known."""
        return _text(self, 0, lang, edition)

    def solution(self, lang="zh", edition=None):
        """The solution as the edition's page shows it, or None where not known."""
        return _text(self, 1, lang, edition)

    def text_origin(self, lang, edition=None):
        """"upstream" or "translation" (made by this project); None where not known."""
        edition = _edition_for(self, edition)
        if _texts(self, lang, edition) is None:
            return None
        return _ORIGINS[edition][lang]


class LLMException(RuntimeError):
    """An error carrying one of the status codes of CANN LLM-DataDist as its status_code."""

    def __init__(self, *args, status_code=LLMStatusCode.LLM_SUCCESS):
        super(LLMException, self).__init__(*args)
        self._status_code = status_code

    @property
    def status_code(self):
        return self._status_code


def code_2_status(code):
    """The member for an integer; LLMStatusCode.LLM_FAILED for an unknown one, as upstream."""
    try:
        return LLMStatusCode(code)
    except ValueError:
        return LLMStatusCode.LLM_FAILED


def lookup(key):
    """The member for an int, a hex or decimal string, a Python name or a C name.

    Raises KeyError naming the closest matches, and saying so when the key is
    a code that exists only in C/C++.
    """
    if isinstance(key, LLMStatusCode):
        return key
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise KeyError("lookup() takes an int or a str, not %s" % type(key).__name__)
    if isinstance(key, str):
        text = key.strip()
        if _HEX.match(text):
            return _by_value(int(text, 16), key)
        if _DECIMAL.match(text):
            return _by_value(int(text), key)
        return _by_name(text, key)
    return _by_value(key, key)


_HEX = re.compile(r"^[-+]?0[xX][0-9a-fA-F]+$")
_DECIMAL = re.compile(r"^[-+]?[0-9]+$")


def _by_value(value, key):
    try:
        return LLMStatusCode(value)
    except ValueError:
        pass
    for name, c_value in _C_ONLY.items():
        if c_value == value:
            raise KeyError(_c_only_message(name, key))
    values = sorted(LLMStatusCode, key=lambda member: (abs(int(member) - value), int(member)))[:3]
    raise KeyError("no status code has the value %r; closest: %s" % (key, ", ".join(
        "%s (%d)" % (member.name, member) for member in values)))


def _by_name(text, key):
    name = text[len("LLMStatusCode."):] if text.startswith("LLMStatusCode.") else text
    for candidate in (name, name.upper()):
        if candidate in LLMStatusCode.__members__:
            return LLMStatusCode[candidate]
        if candidate in _BY_C_NAME:
            return LLMStatusCode[_BY_C_NAME[candidate]]
        if candidate in _C_ONLY:
            raise KeyError(_c_only_message(candidate, key))
    names = list(LLMStatusCode.__members__) + list(_BY_C_NAME) + list(_C_ONLY)
    matches = get_close_matches(name.upper(), sorted(set(names)), n=3, cutoff=0.5)
    hint = "; closest: %s" % ", ".join(matches) if matches else ""
    raise KeyError("no status code is named %r%s" % (key, hint))


def _c_only_message(name, key):
    return "%r is %s (0x%08X), a code that exists only in C/C++: LLMStatusCode has no such member" % (
        key, name, _C_ONLY[name])


def _edition_for(member, edition):
    rows = _ROWS[member.name]
    if edition is None:
        for candidate in reversed(EDITIONS):
            if candidate in rows:
                return candidate
        raise KeyError("no edition's page lists %s" % member)
    if edition in rows or edition in _NOT_KNOWN.get(member.name, ()):
        return edition
    if edition not in EDITIONS:
        raise KeyError("no edition %r; editions: %s" % (edition, ", ".join(EDITIONS)))
    raise KeyError("the %s page does not list %s" % (edition, member))


def _texts(member, lang, edition):
    if lang not in LANGUAGES:
        raise ValueError("lang must be one of %s, not %r" % (", ".join(LANGUAGES), lang))
    return _TEXTS.get((member.name, edition), {}).get(lang)


def _text(member, index, lang, edition):
    texts = _texts(member, lang, _edition_for(member, edition))
    return None if texts is None else texts[index]


# C/C++ names of the members that exist in C/C++ too.
_C_NAMES = {
    "LLM_SUCCESS": "LLM_SUCCESS",
    "LLM_FAILED": "LLM_FAILED",
    "LLM_WAIT_PROCESS_TIMEOUT": "LLM_WAIT_PROC_TIMEOUT",
    "LLM_KV_CACHE_NOT_EXIST": "LLM_KV_CACHE_NOT_EXIST",
    "LLM_REPEAT_REQUEST": "LLM_REPEAT_REQUEST",
    "LLM_REQUEST_ALREADY_COMPLETED": "LLM_REQUEST_ALREADY_COMPLETED",
    "LLM_PARAM_INVALID": "LLM_PARAM_INVALID",
    "LLM_ENGINE_FINALIZED": "LLM_ENGINE_FINALIZED",
    "LLM_NOT_YET_LINK": "LLM_NOT_YET_LINK",
    "LLM_ALREADY_LINK": "LLM_ALREADY_LINK",
    "LLM_LINK_FAILED": "LLM_LINK_FAILED",
    "LLM_UNLINK_FAILED": "LLM_UNLINK_FAILED",
    "LLM_NOTIFY_PROMPT_UNLINK_FAILED": "LLM_NOTIFY_PROMPT_UNLINK_FAILED",
    "LLM_CLUSTER_NUM_EXCEED_LIMIT": "LLM_CLUSTER_NUM_EXCEED_LIMIT",
    "LLM_PROCESSING_LINK": "LLM_PROCESSING_LINK",
    "LLM_DEVICE_OUT_OF_MEMORY": "LLM_DEVICE_OUT_OF_MEMORY",
    "LLM_PREFIX_ALREADY_EXIST": "LLM_PREFIX_ALREADY_EXIST",
    "LLM_PREFIX_NOT_EXIST": "LLM_PREFIX_NOT_EXIST",
    "LLM_SEQ_LENOVERLIMIT": "LLM_SEQ_LEN_OVER_LIMIT",
    "LLM_NO_FREE_BLOCK": "LLM_NO_FREE_BLOCK",
    "LLM_BLOCKS_OUT_OF_MEMORY": "LLM_BLOCKS_OUT_OF_MEMORY",
    "LLM_EXIST_LINK": "LLM_EXIST_LINK",
    "LLM_FEATURE_NOT_ENABLED": "LLM_FEATURE_NOT_ENABLED",
    "LLM_TIMEOUT": "LLM_TIMEOUT",
    "LLM_LINK_BUSY": "LLM_LINK_BUSY",
    "LLM_OUT_OF_MEMORY": "LLM_OUT_OF_MEMORY",
}
_BY_C_NAME = {c_name: name for name, c_name in _C_NAMES.items()}

# Codes that exist only in C/C++: not members, but lookup() names them.
_C_ONLY = {
    "LLM_CACHE_INCOMPATIBLE": 0x5010B014,
    "LLM_CACHE_KEY_ALREADY_EXIST": 0x5010B015,
    "LLM_COPY_CACHE_FAILED": 0x5010B016,
    "LLM_CACHE_ID_ALREADY_EXIST": 0x5010B017,
}

# For each member, the editions whose page lists it, with the page's
# recoverability: True (是), False (否), None (无) or UNKNOWN (never read).
_ROWS = {
    "LLM_SUCCESS": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": None, "8.5.0-v1": None, "9.0.0-v1": None, "9.0.0-v2": None},
    "LLM_FAILED": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": False, "8.5.0-v1": False, "9.0.0-v1": False, "9.0.0-v2": False},
    "LLM_WAIT_PROCESS_TIMEOUT": {"8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True},
    "LLM_KV_CACHE_NOT_EXIST": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_REPEAT_REQUEST": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_REQUEST_ALREADY_COMPLETED": {},
    "LLM_PARAM_INVALID": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_ENGINE_FINALIZED": {},
    "LLM_NOT_YET_LINK": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_ALREADY_LINK": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_LINK_FAILED": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_UNLINK_FAILED": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_NOTIFY_PROMPT_UNLINK_FAILED": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_CLUSTER_NUM_EXCEED_LIMIT": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_PROCESSING_LINK": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_DEVICE_OUT_OF_MEMORY": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True},
    "LLM_PREFIX_ALREADY_EXIST": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_PREFIX_NOT_EXIST": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_SEQ_LENOVERLIMIT": {},
    "LLM_NO_FREE_BLOCK": {},
    "LLM_BLOCKS_OUT_OF_MEMORY": {},
    "LLM_EXIST_LINK": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_FEATURE_NOT_ENABLED": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_TIMEOUT": {"8.0.0": UNKNOWN, "8.2.RC1": True, "9.0.0-v2": True},
    "LLM_LINK_BUSY": {"8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_OUT_OF_MEMORY": {"8.0.0": UNKNOWN, "8.2.RC1": True, "8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_DEVICE_MEM_ERROR": {"8.5.0-v1": True, "9.0.0-v1": True, "9.0.0-v2": True},
    "LLM_SUSPECT_REMOTE_ERROR": {"8.5.0-v1": False, "9.0.0-v1": False, "9.0.0-v2": False},
    "LLM_UNKNOWN_ERROR": {"8.0.RC3": UNKNOWN, "8.0.0": UNKNOWN, "8.5.0-v1": False, "9.0.0-v1": False, "9.0.0-v2": False},
}

# Editions for which it is not known whether their page lists the member.
_NOT_KNOWN = {
    "LLM_DEVICE_MEM_ERROR": ("8.2.RC1", ),
    "LLM_SUSPECT_REMOTE_ERROR": ("8.2.RC1", ),
    "LLM_UNKNOWN_ERROR": ("8.2.RC1", ),
}

# Where each edition's texts come from, per language.
_ORIGINS = {
    "9.0.0-v1": {"zh": "upstream", "en": "upstream"},
    "9.0.0-v2": {"zh": "upstream", "en": "translation"},
}

# (member, edition) -> {lang: (meaning, solution)}, as each page shows them.
_TEXTS = {
    ("LLM_SUCCESS", "9.0.0-v1"): {
        "zh": (
            "成功",
            "无",
        ),
        "en": (
            "Success",
            "None",
        ),
    },
    ("LLM_SUCCESS", "9.0.0-v2"): {
        "zh": (
            "成功",
            "无",
        ),
        "en": (
            "Success",
            "None",
        ),
    },
    ("LLM_FAILED", "9.0.0-v1"): {
        "zh": (
            "通用失败",
            "重启机器或容器；\n保留现场，获取Host/Device日志，并备份。",
        ),
        "en": (
            "General failure",
            "Restart the host or container.\nPreserve the fault context, collect host/device logs, and back them up.",
        ),
    },
    ("LLM_FAILED", "9.0.0-v2"): {
        "zh": (
            "通用失败",
            "重启机器或容器；\n保留现场，获取Host/Device日志，并备份。",
        ),
        "en": (
            "General failure",
            "Restart the host or container.\nPreserve the fault context, collect host/device logs, and back them up.",
        ),
    },
    ("LLM_WAIT_PROCESS_TIMEOUT", "9.0.0-v1"): {
        "zh": (
            "处理超时",
            "- 如果是pull_cache、pull_blocks、transfer_cache_async等传输相关接口报该错误，该链路不可恢复，需重新建链。\n- 其他接口报该异常，加大超时时间并重试。",
        ),
        "en": (
            "Processing timeout",
            "- If this error is reported by transmission-related APIs such as pull_cache, pull_blocks, and transfer_cache_async, the link is unrecoverable and must be re-established.\n- If this error is reported by other APIs, increase the timeout interval and try again.",
        ),
    },
    ("LLM_KV_CACHE_NOT_EXIST", "9.0.0-v1"): {
        "zh": (
            "KV不存在",
            "- 检查对应全量侧报错日志中的请求是否完成。\n- 检查是否存在重复拉取。\n- 检查标记目标cache的参数是否错误。",
        ),
        "en": (
            "KV cache not found",
            "- Check whether the corresponding Prefill-side request in the error log is completed.\n- Check whether duplicate pull operations exist.\n- Check whether the parameters for marking the destination cache are correct.",
        ),
    },
    ("LLM_KV_CACHE_NOT_EXIST", "9.0.0-v2"): {
        "zh": (
            "KV不存在",
            "- 检查对应全量侧报错日志中的请求是否完成。\n- 检查是否存在重复拉取。\n- 检查标记目标cache的参数是否错误。",
        ),
        "en": (
            "KV cache not found",
            "- Check whether the corresponding Prefill-side request in the error log is completed.\n- Check whether duplicate pull operations exist.\n- Check whether the parameters for marking the destination cache are correct.",
        ),
    },
    ("LLM_REPEAT_REQUEST", "9.0.0-v1"): {
        "zh": (
            "重复请求",
            "检查是否存在重复调用。",
        ),
        "en": (
            "Duplicate request",
            "Check whether duplicate calls exist.",
        ),
    },
    ("LLM_REPEAT_REQUEST", "9.0.0-v2"): {
        "zh": (
            "重复请求",
            "检查是否存在重复调用。",
        ),
        "en": (
            "Duplicate request",
            "Check whether duplicate calls exist.",
        ),
    },
    ("LLM_PARAM_INVALID", "9.0.0-v1"): {
        "zh": (
            "参数错误",
            "基于日志排查错误原因。",
        ),
        "en": (
            "Incorrect parameter",
            "Locate the fault based on logs.",
        ),
    },
    ("LLM_PARAM_INVALID", "9.0.0-v2"): {
        "zh": (
            "参数错误",
            "基于日志排查错误原因。",
        ),
        "en": (
            "Incorrect parameter",
            "Locate the fault based on logs.",
        ),
    },
    ("LLM_NOT_YET_LINK", "9.0.0-v1"): {
        "zh": (
            "没有建链",
            "上层排查Decode与Prompt建链情况。",
        ),
        "en": (
            "No link established",
            "Verify the link status between the Decode and Prompt sides at the upper layer.",
        ),
    },
    ("LLM_NOT_YET_LINK", "9.0.0-v2"): {
        "zh": (
            "没有建链",
            "上层排查Decode与Prompt建链情况。",
        ),
        "en": (
            "No link established",
            "Verify the link status between the Decode and Prompt sides at the upper layer.",
        ),
    },
    ("LLM_ALREADY_LINK", "9.0.0-v1"): {
        "zh": (
            "已经建过链",
            "上层排查Decode与Prompt建链情况。",
        ),
        "en": (
            "Link already established",
            "Verify the link status between the Decode and Prompt sides at the upper layer.",
        ),
    },
    ("LLM_ALREADY_LINK", "9.0.0-v2"): {
        "zh": (
            "已经建过链",
            "上层排查Decode与Prompt建链情况。",
        ),
        "en": (
            "Link already established",
            "Verify the link status between the Decode and Prompt sides at the upper layer.",
        ),
    },
    ("LLM_LINK_FAILED", "9.0.0-v1"): {
        "zh": (
            "建链失败",
            "link_clusters第二个返回值中有该error-code时，需要检查对应集群之间的网络连接。",
        ),
        "en": (
            "Link establishment failed",
            "If this error code is returned in the second return value of link_clusters, check the network connectivity between the corresponding clusters.",
        ),
    },
    ("LLM_LINK_FAILED", "9.0.0-v2"): {
        "zh": (
            "建链失败",
            "link_clusters第二个返回值中有该错误码时，需要检查对应集群之间的网络连接。",
        ),
        "en": (
            "Link establishment failed",
            "If this error code is returned in the second return value of link_clusters, check the network connectivity between the corresponding clusters.",
        ),
    },
    ("LLM_UNLINK_FAILED", "9.0.0-v1"): {
        "zh": (
            "断链失败",
            "unlink_clusters第二个返回值中有该error-code时，需要检查对应集群之间的网络连接。",
        ),
        "en": (
            "Link disconnection failed",
            "If this error code is returned in the second return value of unlink_clusters, check the network connectivity between the corresponding clusters.",
        ),
    },
    ("LLM_UNLINK_FAILED", "9.0.0-v2"): {
        "zh": (
            "断链失败",
            "unlink_clusters第二个返回值中有该错误码时，需要检查对应集群之间的网络连接。",
        ),
        "en": (
            "Link disconnection failed",
            "If this error code is returned in the second return value of unlink_clusters, check the network connectivity between the corresponding clusters.",
        ),
    },
    ("LLM_NOTIFY_PROMPT_UNLINK_FAILED", "9.0.0-v1"): {
        "zh": (
            "通知Prompt侧断链失败",
            "1. 排查Decode与Prompt之间的网络连接。\n2. 主动调Prompt侧的unlink_clusters清理残留资源。",
        ),
        "en": (
            "Failed to notify the Prompt side of link disconnection",
            "1. Check the network connectivity between the Decode and Prompt sides.\n2. Call unlink_clusters on the Prompt side to clean up residual resources.",
        ),
    },
    ("LLM_NOTIFY_PROMPT_UNLINK_FAILED", "9.0.0-v2"): {
        "zh": (
            "通知Prompt侧断链失败",
            "1. 排查Decode与Prompt之间的网络连接。\n2. 主动调Prompt侧的unlink_clusters清理残留资源。",
        ),
        "en": (
            "Failed to notify the Prompt side of link disconnection",
            "1. Check the network connectivity between the Decode and Prompt sides.\n2. Call unlink_clusters on the Prompt side to clean up residual resources.",
        ),
    },
    ("LLM_CLUSTER_NUM_EXCEED_LIMIT", "9.0.0-v1"): {
        "zh": (
            "集群数量超过限制",
            "排查link_clusters和unlink_clusters传入参数，clusters数量不能超过16。",
        ),
        "en": (
            "Excessive clusters",
            "Check the input parameters of link_clusters and unlink_clusters and ensure that the number of clusters must not exceed 16.",
        ),
    },
    ("LLM_CLUSTER_NUM_EXCEED_LIMIT", "9.0.0-v2"): {
        "zh": (
            "集群数量超过限制",
            "排查link_clusters和unlink_clusters传入参数，clusters数量不能超过16。",
        ),
        "en": (
            "Excessive clusters",
            "Check the input parameters of link_clusters and unlink_clusters and ensure that the number of clusters must not exceed 16.",
        ),
    },
    ("LLM_PROCESSING_LINK", "9.0.0-v1"): {
        "zh": (
            "正在处理建链",
            "当前正在执行建链或断链操作，请稍后再试。",
        ),
        "en": (
            "Link operation in progress",
            "A link establishment or disconnection operation is in progress. Try again later.",
        ),
    },
    ("LLM_PROCESSING_LINK", "9.0.0-v2"): {
        "zh": (
            "正在处理建链",
            "当前正在执行建链或断链操作，请稍后再试。",
        ),
        "en": (
            "Link operation in progress",
            "A link establishment or disconnection operation is in progress. Try again later.",
        ),
    },
    ("LLM_DEVICE_OUT_OF_MEMORY", "9.0.0-v1"): {
        "zh": (
            "Device内存不足",
            "检查申请的内存是否没有释放。",
        ),
        "en": (
            "Insufficient device memory",
            "Check whether the allocated memory has been properly released.",
        ),
    },
    ("LLM_PREFIX_ALREADY_EXIST", "9.0.0-v1"): {
        "zh": (
            "前缀已经存在",
            "检查是否已加载过相同Prefix Id的公共前缀。如果是，需要先释放。",
        ),
        "en": (
            "Prefix already loaded",
            "Check whether a common prefix with the same prefix ID has been loaded. If yes, release the resources first.",
        ),
    },
    ("LLM_PREFIX_ALREADY_EXIST", "9.0.0-v2"): {
        "zh": (
            "前缀已经存在",
            "检查是否已加载过相同Prefix Id的公共前缀。如果是，需要先释放。",
        ),
        "en": (
            "Prefix already loaded",
            "Check whether a common prefix with the same prefix ID has been loaded. If yes, release the resources first.",
        ),
    },
    ("LLM_PREFIX_NOT_EXIST", "9.0.0-v1"): {
        "zh": (
            "前缀不存在",
            "检查Request中的Prefix Id是否已加载过。",
        ),
        "en": (
            "Prefix not found",
            "Check whether the prefix ID in the request has been loaded.",
        ),
    },
    ("LLM_PREFIX_NOT_EXIST", "9.0.0-v2"): {
        "zh": (
            "前缀不存在",
            "检查Request中的Prefix Id是否已加载过。",
        ),
        "en": (
            "Prefix not found",
            "Check whether the prefix ID in the request has been loaded.",
        ),
    },
    ("LLM_EXIST_LINK", "9.0.0-v1"): {
        "zh": (
            "switch_role时，存在未释放的链接",
            "检查在切换当前LLMDataDist的角色前是否已经调用unlink_clusters断开所有的链接。",
        ),
        "en": (
            "Unreleased links when switch_role is called",
            "Check whether unlink_clusters is called to disconnect all links before the role of the current LLM-DataDist instance is switched.",
        ),
    },
    ("LLM_EXIST_LINK", "9.0.0-v2"): {
        "zh": (
            "switch_role时，存在未释放的链接",
            "检查在切换当前LLMDataDist的角色前是否已经调用unlink_clusters断开所有的链接。",
        ),
        "en": (
            "Unreleased links when switch_role is called",
            "Check whether unlink_clusters is called to disconnect all links before the role of the current LLM-DataDist instance is switched.",
        ),
    },
    ("LLM_FEATURE_NOT_ENABLED", "9.0.0-v1"): {
        "zh": (
            "特性未使能",
            "检查初始化LLMDataDist时是否传入了必要option:\n如果是切换当前LLMDataDist的角色时抛出该异常，排查初始化时LLMConfig是否设置了enable_switch_role = True。",
        ),
        "en": (
            "Feature not enabled",
            "Check whether required options are passed in during LLM-DataDist initialization.\nIf this exception is thrown when the role of the current LLM-DataDist instance is switched, check whether enable_switch_role is set to True in LLMConfig during initialization.",
        ),
    },
    ("LLM_FEATURE_NOT_ENABLED", "9.0.0-v2"): {
        "zh": (
            "特性未使能",
            "检查初始化LLMDataDist时是否传入了必要option:\n如果是切换当前LLMDataDist的角色时抛出该异常，排查初始化时LLMConfig是否设置了enable_switch_role = True。",
        ),
        "en": (
            "Feature not enabled",
            "Check whether required options are passed in during LLM-DataDist initialization.\nIf this exception is thrown when the role of the current LLM-DataDist instance is switched, check whether enable_switch_role is set to True in LLMConfig during initialization.",
        ),
    },
    ("LLM_TIMEOUT", "9.0.0-v2"): {
        "zh": (
            "处理超时",
            "- 如果是pull_cache、pull_blocks、transfer_cache_async等传输相关接口报错，该链路不可恢复，需重新建链。\n- 其他接口报该异常，加大超时时间并重试。",
        ),
        "en": (
            "Processing timeout",
            "- If this error is reported by transmission-related APIs such as pull_cache, pull_blocks, and transfer_cache_async, the link is unrecoverable and must be re-established.\n- If this error is reported by other APIs, increase the timeout interval and try again.",
        ),
    },
    ("LLM_LINK_BUSY", "9.0.0-v1"): {
        "zh": (
            "链路繁忙",
            "检查同时调用的接口是否有冲突，例如：同时调用如下接口时，会报该error-code。\n- 使用相同链路同时调用KvCacheManager的pull_cache和transfer_cache_async。\n- 同时调用check_link_status和KvCacheManager的pull_cache。",
        ),
        "en": (
            "Link busy",
            "Check whether the APIs called at the same time conflict with each other. For example, this error code is reported when the following APIs are called at the same time:\n- pull_cache and transfer_cache_async of KvCacheManager over the same link\n- check_link_status and pull_cache of KvCacheManager",
        ),
    },
    ("LLM_LINK_BUSY", "9.0.0-v2"): {
        "zh": (
            "链路繁忙",
            "检查同时调用的接口是否有冲突，例如：同时调用如下接口时，会报该错误码。\n- 同时调用unlink和 pull_cache。\n- 使用相同链路同时调用pull_cache和transfer_cache_async。",
        ),
        "en": (
            "Link busy",
            "Check whether the APIs called at the same time conflict with each other. For example, this error code is reported when the following APIs are called at the same time:\n- unlink and pull_cache\n- pull_cache and transfer_cache_async over the same link",
        ),
    },
    ("LLM_OUT_OF_MEMORY", "9.0.0-v1"): {
        "zh": (
            "内存不足",
            "CacheManager模式下才会出现该error-code。\n检查内存池是否足够容纳申请的KV大小；\n检查申请的内存是否没有释放。",
        ),
        "en": (
            "Insufficient memory",
            "This error code is displayed only in CacheManager mode.\nCheck whether the memory pool is sufficient for the requested KV size.\nCheck whether the allocated memory has been properly released.",
        ),
    },
    ("LLM_OUT_OF_MEMORY", "9.0.0-v2"): {
        "zh": (
            "内存不足",
            "检查内存池是否足够容纳申请的KV大小；\n检查申请的内存是否没有释放。",
        ),
        "en": (
            "Insufficient memory",
            "Check whether the memory pool is sufficient for the requested KV size.\nCheck whether the allocated memory has been properly released.",
        ),
    },
    ("LLM_DEVICE_MEM_ERROR", "9.0.0-v1"): {
        "zh": (
            "出现内存UCE（incorrect error，指系统硬件不能直接处理恢复内存错误）的错误虚拟地址",
            "请参考《Ascend Extension for PyTorch 自定义API参考》中的torch_npu.npu.restart_device接口的说明获取并修复内存UCE的错误虚拟地址。\n说明：本error-code为预留，暂不支持。",
        ),
        "en": (
            "Faulty virtual address of an uncorrectable memory error (UCE)",
            "Obtain the faulty virtual address of the memory UCE and rectify it by referring to the description of the torch_npu.npu.restart_device API in Ascend Extension for PyTorch Custom API Reference.\nNote: This error code is reserved and not supported currently.",
        ),
    },
    ("LLM_DEVICE_MEM_ERROR", "9.0.0-v2"): {
        "zh": (
            "出现内存UCE（uncorrect error，指系统硬件不能直接处理恢复内存错误）的错误虚拟地址",
            "请参考《Ascend Extension for PyTorch 自定义API参考(https://www.hiascend.com/document/detail/zh/Pytorch/2600/apiref/torchnpuCustomsapi/docs/zh/custom_APIs/overview.md)》中的torch_npu.npu.restart_device接口的说明获取并修复内存UCE的错误虚拟地址。如果是KV Cache内存，需要再调用cache manager的remap_registered_memory接口修复注册给网卡的KV Cache内存。\n说明：本错误码为预留，暂不支持。",
        ),
        "en": (
            "Faulty virtual address of an uncorrectable memory error (UCE)",
            "Obtain the faulty virtual address of the memory UCE and rectify it by referring to the description of the torch_npu.npu.restart_device API in Ascend Extension for PyTorch Custom API Reference (https://www.hiascend.com/document/detail/zh/Pytorch/2600/apiref/torchnpuCustomsapi/docs/zh/custom_APIs/overview.md). If the memory is KV Cache memory, also call remap_registered_memory of the cache manager to repair the KV Cache memory registered with the NIC.\nNote: This error code is reserved and not supported currently.",
        ),
    },
    ("LLM_SUSPECT_REMOTE_ERROR", "9.0.0-v1"): {
        "zh": (
            "疑似是UCE内存故障",
            "上层框架需要结合其它故障进行综合判断是UCE内存故障还是他故障。",
        ),
        "en": (
            "Suspected UCE memory fault",
            "The upper-layer framework must perform a comprehensive diagnosis in combination with other faults to determine whether the issue is a UCE memory fault or another type of fault.",
        ),
    },
    ("LLM_SUSPECT_REMOTE_ERROR", "9.0.0-v2"): {
        "zh": (
            "疑似是UCE内存故障",
            "上层框架需要结合其它故障进行综合判断是UCE内存故障还是他故障。",
        ),
        "en": (
            "Suspected UCE memory fault",
            "The upper-layer framework must perform a comprehensive diagnosis in combination with other faults to determine whether the issue is a UCE memory fault or another type of fault.",
        ),
    },
    ("LLM_UNKNOWN_ERROR", "9.0.0-v1"): {
        "zh": (
            "未知错误",
            "保留现场，获取Host/Device日志，并备份。",
        ),
        "en": (
            "Unknown error",
            "Preserve the fault context, collect host/device logs, and back them up.",
        ),
    },
    ("LLM_UNKNOWN_ERROR", "9.0.0-v2"): {
        "zh": (
            "未知错误",
            "保留现场，获取Host/Device日志，并备份。",
        ),
        "en": (
            "Unknown error",
            "Preserve the fault context, collect host/device logs, and back them up.",
        ),
    },
}
