"""What the banker says aloud: the texts for speech in each language, and what to say
at each moment (``said``). Pure: the synthesizer and the sound card are the
runtime's (``firmware.runtime.speaker``)."""
