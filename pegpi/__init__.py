"""The application: the command line and the composition root that assembles a running companion.

The packages depend one way, ``games`` <- ``vision`` <- ``device`` <- ``web`` <- ``pegpi``; only
this package sees them all, so only here are the camera, the session, the outputs and the phone
page put together.
"""
