using System;
using System.Collections.Generic;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// /action (docs/protocol.md §2.7, §6.3, §6.4): clicks and holds at a point, release, zoom out,
    /// the five rotations, and the oracle extras. The other half of <see cref="GameController"/>;
    /// main thread only.
    /// </summary>
    public sealed partial class GameController
    {
        public string Act(string action, double x, double y)
        {
            if ((_lifecycle != Lifecycle.LightsOn && _lifecycle != Lifecycle.LightsOff) || !_missionStarted)
                throw new RefusedException(400, "Cannot send action to the game in " + _lifecycle + " state");
            switch (action)
            {
                case "click":
                    {
                        string pressed = Press(_game.HitTest(x, 1.0 - y));
                        return pressed + ReleaseLast();
                    }
                case "hold": return Press(_game.HitTest(x, 1.0 - y));
                case "release": return ReleaseLast();
                case "out": return Out();
                case "left": Rotate(0, -90, false); return "flipped bomb left by 90 degrees";
                case "right": Rotate(0, 90, false); return "flipped bomb right by 90 degrees";
                case "up": Rotate(90, 0, false); return "flipped bomb up by 90 degrees";
                case "down": Rotate(-90, 0, false); return "flipped bomb down by 90 degrees";
                case "flip": Rotate(0, 0, true); return "flipped bomb 180 degrees";
                case "magic": return Magic();
                case "lottery": return Lottery();
                default: throw new RefusedException(400, InvalidDirection);
            }
        }

        string Press(ITarget target)
        {
            if (target == null) return "No interactable hit";
            if (target.IsModule)
            {
                _lastPressed = null;
                ZoomInLater(target);
                return "clicked on: " + target.Name;
            }
            _game.Press(target);
            _lastPressed = target;
            return "clicked on: " + target.Name;
        }

        string ReleaseLast()
        {
            if (_lastPressed == null) return "No last used selectable.";
            ITarget target = _lastPressed;
            _lastPressed = null;
            _game.Release(target);
            return "Released: " + target.Name;
        }

        /// <summary>Zooming is an animation on game time: it starts once time runs (§6.3).</summary>
        void ZoomInLater(ITarget module)
        {
            int generation = _generation;
            _clock.WhenRunning(delegate
            {
                if (generation == _generation && _game.FocusedModule == null) _game.ZoomIn(module);
            });
        }

        string Out()
        {
            string focused = _game.FocusedModule;
            if (focused == null) return "No module zoomed into";
            _clock.WhenRunning(delegate { if (_game.FocusedModule != null) _game.ZoomOut(); });
            return "Zooming out from: " + focused;
        }

        /// <summary>Turn now, or when zoomed in: zoom out once time runs and turn 0.5 s later.</summary>
        void Rotate(int tilt, int side, bool flip)
        {
            Callback turn = delegate
            {
                if (flip && _tilt == 0) _side = (_side + 180) % 360;
                else if (flip) _tilt = -_tilt;
                else
                {
                    _side = (_side + side + 360) % 360;
                    _tilt = Math.Max(-90, Math.Min(90, _tilt + tilt));
                }
                ApplyRotation();
            };
            if (_game.FocusedModule == null)
            {
                turn();
                return;
            }
            int generation = _generation;
            _clock.WhenRunning(delegate
            {
                if (generation != _generation) return;
                _game.ZoomOut();
                _clock.After(RotateAfterZoomOut, delegate { if (generation == _generation) turn(); });
            });
        }

        void ApplyRotation()
        {
            _game.SetBombRotation(_tilt, _side);
            if (_tilt == 0 && (_side == 0 || _side == 180))
            {
                _rear = _side == 180;
                _game.SelectFace(_rear);
            }
        }

        string BombSide()
        {
            if (_tilt > 0) return "top";
            if (_tilt < 0) return "bottom";
            switch (_side)
            {
                case 90: return "right";
                case 180: return "back";
                case 270: return "left";
                default: return "front";
            }
        }

        /// <summary>
        /// One oracle step (§6.4). Unlike the shipped mod, a "step" inside a module solves the
        /// whole module (we do not carry Twitch Plays' per-module solvers).
        /// </summary>
        string Magic()
        {
            BombState bomb = _game.ReadBomb();
            int focused = bomb.Modules.FindIndex(delegate (ModuleState m) { return m != null && m.InFocus; });
            if (focused >= 0)
            {
                ModuleState module = bomb.Modules[focused];
                if (module.IsSolved)
                {
                    _clock.WhenRunning(delegate { if (_game.FocusedModule != null) _game.ZoomOut(); });
                    return "Zooming out from: " + module.Name;
                }
                if (module.IsEmerging) return "Can't do step now, try again later";
                _game.ForceSolve(focused);
                return "Solved one step";
            }
            int next = _magicOrder.FindIndex(delegate (int i) { return i < bomb.Modules.Count && !bomb.Modules[i].IsSolved; });
            if (next < 0) return "Can't do step now, try again later";
            ModuleState target = bomb.Modules[_magicOrder[next]];
            bool facing = _tilt == 0 && (_side == 0 || _side == 180) && target.OnFront == (_side == 0);
            if (facing)
            {
                ITarget module = _game.ModuleTarget(_magicOrder[next]);
                if (module == null) return "Can't do step now, try again later";
                ZoomInLater(module);
                return "Zoomed into " + target.Name;
            }
            _tilt = 0;
            _side = target.OnFront ? 0 : 180;
            ApplyRotation();
            return "magically flipped to other side";
        }

        /// <summary>A uniformly random legal-looking action, done directly on its target (§6.4).</summary>
        string Lottery()
        {
            IList<ITarget> targets = _game.ActiveTargets();
            string[] plain = { "out", "release", "left", "right", "up", "down", "flip" };
            int choice = _rng.Next(targets.Count * 2 + plain.Length);
            if (choice < targets.Count * 2)
            {
                ITarget target = targets[choice / 2];
                Press(target);
                if (choice % 2 == 0)
                {
                    ReleaseLast();
                    return "Did: click " + target.Name;
                }
                return "Did: hold " + target.Name;
            }
            string name = plain[choice - targets.Count * 2];
            Act(name, 0, 0);
            return "Did: " + name;
        }
    }
}
