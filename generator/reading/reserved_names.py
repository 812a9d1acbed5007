"""Names a code must not take because the language around a generated file owns them.

A constants-shaped Python module defines each code at module level: a code named
`dict` or `isinstance` replaces the built-in its own code (and its importer's `from
module import *`) calls. A C header defines each code as a macro (C) or as a constant
in a namespace (C++): a code named `EOF` or `errno` collides with the macro of that
name the moment a translation unit includes <stdio.h> or <errno.h> too, namespace or
not, and `printf` or `FILE` makes every use of the library's own name ambiguous under
`using namespace`. The lists are fixed here, not read from the running interpreter or
compiler, so that a catalog is valid or not on every machine alike.
"""
from __future__ import annotations

import re

# The built-in names of CPython 3.9 to 3.14 (dir(builtins) without the private ones).
PYTHON_BUILTINS = frozenset("""
    ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError BrokenPipeError
    BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError
    ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception ExceptionGroup
    FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning
    IndentationError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
    ModuleNotFoundError NameError NotADirectoryError NotImplemented NotImplementedError OSError OverflowError
    PendingDeprecationWarning PermissionError ProcessLookupError PythonFinalizationError RecursionError ReferenceError
    ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError
    SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError
    UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError
    abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright
    credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash
    help hex id input int isinstance issubclass iter len license list locals map max memoryview min next object oct open
    ord pow print property quit range repr reversed round set setattr slice sorted staticmethod str sum super tuple type
    vars zip
""".split())

# The macros, types, objects and functions of the C standard library's headers (C17, and
# what C23 adds), by header, and a few of POSIX's <unistd.h> that every C program includes.
_C_LIBRARY = {
    "assert.h": "assert NDEBUG static_assert",
    "complex.h": "complex imaginary I CMPLX CMPLXF CMPLXL",
    "ctype.h": "isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace isupper isxdigit "
    "tolower toupper",
    "errno.h": "errno EDOM EILSEQ ERANGE EINVAL ENOMEM EAGAIN EACCES EBADF EBUSY EEXIST EINTR EIO ENOENT ENOSPC EPERM "
    "EPIPE ETIMEDOUT ENOTSUP EOVERFLOW",
    "fenv.h": "fenv_t fexcept_t feclearexcept fegetexceptflag feraiseexcept fesetexceptflag fetestexcept fegetround "
    "fesetround fegetenv feholdexcept fesetenv feupdateenv",
    "float.h": "DECIMAL_DIG FLT_EVAL_METHOD FLT_RADIX FLT_ROUNDS",
    "inttypes.h": "imaxdiv_t imaxabs imaxdiv strtoimax strtoumax wcstoimax wcstoumax",
    "limits.h": "CHAR_BIT SCHAR_MIN SCHAR_MAX UCHAR_MAX CHAR_MIN CHAR_MAX MB_LEN_MAX SHRT_MIN SHRT_MAX USHRT_MAX "
    "INT_MIN INT_MAX UINT_MAX LONG_MIN LONG_MAX ULONG_MAX LLONG_MIN LLONG_MAX ULLONG_MAX BITINT_MAXWIDTH",
    "locale.h": "lconv setlocale localeconv",
    "math.h": "HUGE_VAL HUGE_VALF HUGE_VALL INFINITY NAN MATH_ERRNO MATH_ERREXCEPT math_errhandling float_t double_t "
    "fpclassify isfinite isinf isnan isnormal signbit isgreater isgreaterequal isless islessequal "
    "islessgreater isunordered",
    "setjmp.h": "jmp_buf setjmp longjmp",
    "signal.h": "sig_atomic_t signal raise",
    "stdalign.h": "alignas alignof",
    "stdarg.h": "va_list va_start va_arg va_end va_copy",
    "stdatomic.h": "kill_dependency",
    "stdbool.h": "bool true false",
    "stddef.h": "NULL offsetof ptrdiff_t size_t max_align_t wchar_t nullptr_t unreachable",
    "stdio.h": "FILE fpos_t BUFSIZ EOF FOPEN_MAX FILENAME_MAX L_tmpnam SEEK_CUR SEEK_END SEEK_SET TMP_MAX stderr stdin "
    "stdout remove rename tmpfile tmpnam fclose fflush fopen freopen setbuf setvbuf fprintf fscanf printf "
    "scanf snprintf sprintf sscanf vfprintf vfscanf vprintf vscanf vsnprintf vsprintf vsscanf fgetc fgets "
    "fputc fputs getc getchar gets putc putchar puts ungetc fread fwrite fgetpos fseek fsetpos ftell rewind "
    "clearerr feof ferror perror fileno fdopen popen pclose getline",
    "stdlib.h": "EXIT_FAILURE EXIT_SUCCESS MB_CUR_MAX RAND_MAX div_t ldiv_t lldiv_t atof atoi atol atoll rand srand "
    "aligned_alloc calloc free malloc realloc abort atexit at_quick_exit exit getenv quick_exit system "
    "bsearch qsort abs labs llabs div ldiv lldiv mblen mbtowc wctomb mbstowcs wcstombs",
    "stdnoreturn.h": "noreturn",
    "threads.h": "thread_local ONCE_FLAG_INIT TSS_DTOR_ITERATIONS once_flag call_once",
    "time.h": "CLOCKS_PER_SEC clock_t time_t timespec tm clock difftime mktime time timespec_get asctime ctime gmtime "
    "localtime",
    "uchar.h": "char8_t char16_t char32_t mbstate_t mbrtoc8 c8rtomb mbrtoc16 c16rtomb mbrtoc32 c32rtomb",
    "wchar.h": "wint_t WEOF WCHAR_MIN WCHAR_MAX btowc fgetwc fgetws fputwc fputws fwide fwprintf fwscanf getwc "
               "getwchar "
    "mbrlen mbrtowc mbsinit mbsrtowcs putwc putwchar swprintf swscanf ungetwc vfwprintf vfwscanf vswprintf "
    "vswscanf vwprintf vwscanf wcrtomb wctob wmemchr wmemcmp wmemcpy wmemmove wmemset wprintf wscanf",
    "wctype.h": "wctrans_t wctype_t wctrans wctype",
    "unistd.h": "STDIN_FILENO STDOUT_FILENO STDERR_FILENO PATH_MAX NAME_MAX SSIZE_MAX ssize_t",
}
# The math and complex functions, each also with the suffixes f (float) and l (long double).
_COMPLEX = ("cabs cacos cacosh carg casin casinh catan catanh ccos ccosh cexp cimag clog conj cpow cproj creal csin "
            "csinh csqrt ctan ctanh").split()
_MATH = (
    "acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1 frexp ilogb ldexp log log10 "
    "log1p log2 logb modf scalbn scalbln cbrt fabs hypot pow sqrt erf erfc lgamma tgamma ceil floor nearbyint rint "
    "lrint llrint round lround llround trunc fmod remainder remquo copysign nan nextafter nexttoward fdim fmax fmin "
    "fma"
).split()
C_LIBRARY_NAMES: dict[str, str] = {name: header for header, names in _C_LIBRARY.items() for name in names.split()}
C_LIBRARY_NAMES.update({name + suffix: "math.h" for name in _MATH for suffix in ("", "f", "l")})
C_LIBRARY_NAMES.update({name + suffix: "complex.h" for name in _COMPLEX for suffix in ("", "f", "l")})

# The identifiers the C standard reserves to its headers for the future (C17 7.31), with
# the header that reserves them: a later library may define any of them.
C_LIBRARY_PATTERNS = (
    (re.compile(r"^E[0-9A-Z]"), "errno.h"),
    (re.compile(r"^(?:is|to)[a-z]"), "ctype.h"),
    (re.compile(r"^(?:str|mem|wcs)[a-z]"), "string.h"),
    (re.compile(r"^LC_[A-Z]"), "locale.h"),
    (re.compile(r"^SIG_?[A-Z]"), "signal.h"),
    (re.compile(r"^(?:PRI|SCN)[a-zX]"), "inttypes.h"),
    (re.compile(r"^FE_[A-Z]"), "fenv.h"),
    (re.compile(r"^FP_[A-Z]"), "math.h"),
    (re.compile(r"^(?:FLT|DBL|LDBL)_[A-Z0-9]"), "float.h"),
    (re.compile(r"^(?:ATOMIC_[A-Z]|atomic_[a-z]|memory_order_[a-z])"), "stdatomic.h"),
    (re.compile(r"^(?:cnd|mtx|thrd|tss)_[a-z]"), "threads.h"),
    (re.compile(r"^TIME_[A-Z]"), "time.h"),
    (re.compile(r"^(?:[SU]?CHAR|U?SHRT|U?INT|U?LONG|U?LLONG|BOOL)_WIDTH$"), "limits.h"),
)


def c_library_header(name: str) -> str | None:
    """The standard header that defines or reserves `name`, or None."""
    if name in C_LIBRARY_NAMES:
        return C_LIBRARY_NAMES[name]
    for pattern, header in C_LIBRARY_PATTERNS:
        if pattern.match(name):
            return header
    return None
