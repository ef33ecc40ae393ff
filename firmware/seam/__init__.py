"""The table's one seam for other processes: a Unix socket in its state folder.

The table publishes what it shows (``shown``) and takes a few intents (``intents``),
each one input of its machine; ``server`` is the table's end, ``client`` the others'
(the companion page, ``robinson names``). ``wire`` is the framing both speak: one JSON
object a line. Nothing outside the table re-derives its rules.
"""
