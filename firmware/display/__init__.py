"""What the panel shows: screens, their rendering, the fonts, the panel and its partial updates."""
