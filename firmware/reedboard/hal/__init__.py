"""Hardware behind ports: the protocols in `ports`, and their adapters (GPIO matrix, fake GPIO).

Hardware libraries (`RPi.GPIO`, `neopixel`) are imported only inside the adapter that needs
them, and only when that adapter is chosen, so every module here imports on any PC.
"""
