"""What runs under the table's rules: the loop that orders every event and timer, and the
LEDs and buzzer it drives (with their tunes). The devices build these; the table uses them."""
