"""The table's shell: what runs the pure machine (``firmware.table``) on real things. It
turns gpiozero's callbacks into inputs (``buttons``), runs the machine's effects in
order on the panel, the outputs, the voice and the saves, rolls the die (``die``),
weighs a decision's odds beside the loop (``weigh``), and keeps a scripted press at the
table's pace (``pace``). ``table.Table`` is its face; ``parts`` what it is given."""
