"""The table at play, as a pure machine: its state, the step that takes each input (and
the rooms of it: play, the menus, phones, the writes), and the view drawn from the state.
Nothing here touches a device, a clock, the disk or a thread: the shell does
(``firmware.shell``)."""
