"""Hardware drivers of the lab kit: camera, display, buttons, serial console and LED.

Each family has a small typed interface and backends chosen by name from the configuration (see
``drivers.platform``): the real one, a fake for tests and the simulator, and ``disabled``. A
backend imports its hardware library only when it is opened. Faults are ``OSError`` subclasses
naming the part (``CameraError``, ``DisplayError``, ``ButtonsError``, ``ConsoleError``,
``LedError``); bad configuration is a ``ValueError``.
"""
