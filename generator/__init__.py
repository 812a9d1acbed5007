"""Generate status-code outputs (Python, C/C++, JSON, the docs site) from one YAML catalog.

The layers, lowest first; a module imports its own layer and the layers below, never one
above, and `audit` and `importing` (one level) never import each other
(tests/test_architecture.py enforces it, with no import cycle and no function over 60 lines):

``core``       problems with positions, exit statuses, release order, the project's version,
               the generator's own paths, whether this Python can run the generator
               (``environment``). Imports no other layer.
``domain``     the model: frozen dataclasses (``model``, ``editions``, ``codes``, ``family``)
               and the questions more than one output asks (``queries``, ``changes``).
``reading``    the catalog read and validated into the model: strict YAML with positions,
               typed fields, every problem at once (``load.load_catalog``).
``rendering``  from the model to outputs: ``targets`` is the one table of outputs;
               ``python_module``, ``c_header``, ``json_export``, ``upstream_page`` and
               ``site`` plan each output with the pure function that renders it;
               ``catalog_hash`` a family's CATALOG_HASH; ``escape`` the escaping of every place a text lands.
``writing``    the one layer that touches the output tree: the survey, atomic writes, the
               lock, the manifests and the journal.
``upstream``   upstream's repositories and files, read: ``git``, the Python and C/C++
               sources, the pages' tables.
``audit``      the catalog against upstream's files (``given_files``, ``repositories``).
``importing``  upstream's pages and releases into the catalog (``one_page``, ``release``).
``shipping``   what leaves the checkout: ``vendor``, ``publish``, ``serve``, the MkDocs
               build, ``explain``.

On top, the entry points: ``cli`` (parses arguments, holds no logic), ``commands`` and
``commands_upstream`` (what each verb does), ``sphinx`` (the Sphinx extension) and
``bench`` (``make bench``, its synthetic catalogs in ``bench_catalog``).
"""
