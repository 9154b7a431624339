"""The translation catalogues, in one package: the ``.po`` files read and checked
(:mod:`~validator.catalogs.po`), patched after an edit (``patch``) and made again when
let go (``parsed``); their headers, the lossless merge of a template into them and the
writer that wraps their lines (``headers``, ``merge``, ``powrap``); the engine's own
interface catalogues (``interface``); the round trip through XLIFF (``xliff``); what is
translated (``status``); the extractor ``pybabel`` calls (``extract``); and the update of
every catalogue of a book (``update``, which ``validator i18n`` runs).
"""
