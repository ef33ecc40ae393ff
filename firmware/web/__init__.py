"""The companion page: the table on every phone at the table (``robinson web``).

Another process, another unit, another sandbox: it follows the table through the
seam (``live``), the games put away included (it reads no saves), and serves pages
(``pages``) in the table's language (``words``) with Starlette under uvicorn
(``app``). A change needs a phone paired through the panel (``pairing``).
"""
